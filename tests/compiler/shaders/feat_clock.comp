#version 450
// The shader clock (GL_EXT_shader_realtime_clock): timing in shaders.
#extension GL_EXT_shader_realtime_clock : require
#extension GL_ARB_gpu_shader_int64 : require
#define INS 1
#define OUTS 1
#include "map.glsl"
void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   uint64_t t0 = clockRealtimeEXT();
   uint64_t t1 = clockRealtimeEXT();
   ou(0, uint(t1 >= t0));
}
