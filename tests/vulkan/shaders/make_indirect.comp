// Writes a VkDispatchIndirectCommand (and a copy for the host) computed
// from the parameters: x = ceil(n / 16) groups, y and z as given.
#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) readonly buffer Params { uint n; uint y; uint z; };
layout(set = 0, binding = 1) writeonly buffer Args { uint words[]; };
layout(push_constant) uniform P { uint word_offset; } p;
void main()
{
   words[p.word_offset + 0u] = (n + 15u) / 16u;
   words[p.word_offset + 1u] = y;
   words[p.word_offset + 2u] = z;
}
