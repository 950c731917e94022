#version 450
// atomicAdd on floats (GL_EXT_shader_atomic_float).
#extension GL_EXT_shader_atomic_float : require
layout(local_size_x_id = 0) in;
layout(std430, set = 0, binding = 0) buffer B { float sum; };
void main()
{
   atomicAdd(sum, 1.0);
}
