// Update-after-bind and partially bound descriptors: copies a uniform
// value and the invocation index into a storage buffer; binding 2 is read
// only when the push constant asks for it (never, in the partially-bound
// test, where it is left unwritten).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint r[]; };
layout(set = 0, binding = 1) uniform In { uint value; };
layout(set = 0, binding = 2) readonly buffer Extra { uint extra; };
layout(push_constant) uniform Push { uint use_extra; };
void main()
{
   uint g = gl_GlobalInvocationID.x;
   uint v = value + g;
   // A branch, not a select: binding 2 must not be read unless asked for.
   if (use_extra != 0u)
      v += extra;
   r[g] = v;
}
