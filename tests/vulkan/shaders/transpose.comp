// out (w x h) = transpose of in (h rows x w columns), 16x16 tiles through
// shared memory (padded to avoid bank conflicts on real hardware).
#version 450
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer In { uint src[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint dst[]; };
layout(push_constant) uniform P { uint w; uint h; } p;
shared uint tile[16][17];
void main()
{
   uint tx = gl_LocalInvocationID.x;
   uint ty = gl_LocalInvocationID.y;
   uint x = gl_WorkGroupID.x * 16u + tx;
   uint y = gl_WorkGroupID.y * 16u + ty;
   if (x < p.w && y < p.h)
      tile[ty][tx] = src[y * p.w + x];
   barrier();
   uint ox = gl_WorkGroupID.y * 16u + tx;   // column of out = row of in
   uint oy = gl_WorkGroupID.x * 16u + ty;   // row of out = column of in
   if (ox < p.h && oy < p.w)
      dst[oy * p.h + ox] = tile[tx][ty];
}
