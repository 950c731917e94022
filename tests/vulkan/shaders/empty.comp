// Does nothing: a pipeline whose layout may have no sets and no push
// constants, so it reads none of the root table.
#version 450
layout(local_size_x = 1) in;
void main()
{
}
