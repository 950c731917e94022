// debugPrintfEXT (VK_KHR_shader_non_semantic_info): one line from
// invocation 3.
#version 450
#extension GL_EXT_debug_printf : require
layout(local_size_x = 8) in;
void main()
{
   if (gl_GlobalInvocationID.x == 3u)
      debugPrintfEXT("feature test: invocation %u of %u", gl_GlobalInvocationID.x, gl_WorkGroupSize.x);
}
