#version 450
// Shared arrays at a constant first index and a dynamic second one, as a
// tiled kernel indexes its tiles: the constant part of the address (the
// array's place and k * row) belongs in the memory instruction's offset.
// Each invocation uses its own column, so no barrier is needed; pad puts
// the tile at a non-zero place (every invocation writes it the same).
// An index l + 8 is l with the 8 in the offset too.
#define INS 2
#define OUTS 3
#include "map.glsl"

shared uint pad[5];
shared uint tile[3][1024];
shared uint row[1032];

void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   uint l = gl_LocalInvocationID.x, a = iu(0), b = iu(1);
   pad[2] = 7u;
   row[l + 8u] = a * 5u;
   for (uint k = 0u; k < 3u; k++)
      tile[k][l] = a + k * b;
   uint s = 0u;
   for (uint k = 0u; k < 3u; k++)
      s = s * 31u + tile[2u - k][l];
   ou(0, s);
   ou(1, tile[1][l] + pad[2]);
   ou(2, (tile[2][l] ^ b) + row[l + 8u]);
}
