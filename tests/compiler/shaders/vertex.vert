#version 450
// Not a compute shader: sc_compile must refuse it with a clear message.
layout(location = 0) in vec4 pos;
void main()
{
   gl_Position = pos * 2.0;
}
