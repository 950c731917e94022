#version 450
// Shared arrays of structs with vec3 members and a 2-D shared array:
// each invocation writes its element, then reads another invocation's
// (reversed order) after a barrier.
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint o[]; };
layout(push_constant) uniform Push { uint n; } pc;
struct E {
   vec3 p;
   uint id;
   float w[2];
};
shared E e[1024];
shared uint grid[32][33];

void main()
{
   uint lid = gl_LocalInvocationIndex, g = gl_GlobalInvocationID.x;
   uint L = gl_WorkGroupSize.x;
   e[lid].p = vec3(float(g), 2.0 * float(g), -float(g));
   e[lid].id = g ^ 0x5a5au;
   e[lid].w[0] = 0.5;
   e[lid].w[1] = float(lid);
   grid[lid & 31u][lid >> 5] = g;
   barrier();
   E r = e[L - 1u - lid];
   uint t = grid[lid / 32u][lid % 32u];
   if (g < pc.n) {
      o[g * 4u] = floatBitsToUint(r.p.y + r.p.z);
      o[g * 4u + 1u] = r.id;
      o[g * 4u + 2u] = floatBitsToUint(r.w[1] + r.w[0]);
      o[g * 4u + 3u] = t;
   }
}
