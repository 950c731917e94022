// Sum, maximum and xor-sum of n words: each workgroup reduces 512 words
// with a tree in shared memory (sum, max) and with shared-memory atomics
// (xor-sum), then one invocation adds its results with global atomics.
#version 450
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1) buffer Out { uint sum; uint maximum; uint xsum; uint groups; };
layout(push_constant) uniform P { uint n; } p;
shared uint s[256];
shared uint m[256];
shared uint x;
void main()
{
   uint l = gl_LocalInvocationID.x;
   uint i = gl_WorkGroupID.x * 512u + l;
   uint a = i < p.n ? v[i] : 0u;
   uint b = i + 256u < p.n ? v[i + 256u] : 0u;
   if (l == 0u)
      x = 0u;
   s[l] = a + b;
   m[l] = max(a, b);
   barrier();
   atomicXor(x, a ^ b);
   for (uint st = 128u; st > 0u; st >>= 1) {
      if (l < st) {
         s[l] += s[l + st];
         m[l] = max(m[l], m[l + st]);
      }
      barrier();
   }
   if (l == 0u) {
      atomicAdd(sum, s[0]);
      atomicMax(maximum, m[0]);
      atomicXor(xsum, x);
      atomicAdd(groups, 1u);
   }
}
