#version 450
// Function-local arrays indexed dynamically: reads and writes at
// data-dependent indices, a bubble sort (divergent swaps), an array of
// structs and a 2-D array.
#define INS 8
#define OUTS 16
#include "map.glsl"

struct Item {
   uint a;
   float b;
   uvec2 c;
};

void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   uint arr[16];
   for (uint j = 0u; j < 16u; j++)
      arr[j] = iu(j & 7u) ^ j;
   uint k = iu(0) & 15u;
   arr[k] += 1000u;
   arr[(k * 7u) & 15u] ^= 0xffu;
   ou(0, arr[iu(1) & 15u]);
   ou(1, arr[k] + arr[15u - k]);

   uint v[8];
   for (uint j = 0u; j < 8u; j++)
      v[j] = iu(j) % 100u;
   for (uint p = 0u; p < 7u; p++) {
      for (uint j = 0u; j < 7u - p; j++) {
         if (v[j] > v[j + 1u]) {
            uint t = v[j];
            v[j] = v[j + 1u];
            v[j + 1u] = t;
         }
      }
   }
   for (uint j = 0u; j < 8u; j++)
      ou(2u + j, v[j]);

   Item items[4];
   for (uint j = 0u; j < 4u; j++)
      items[j] = Item(iu(j), float(j) + 0.5, uvec2(j, iu(j + 4u)));
   uint m = iu(2) & 3u;
   items[m].a += 5u;
   items[(m + 1u) & 3u].c.y = 77u;
   ou(10, items[m].a);
   of(11, items[m ^ 1u].b);
   ou(12, items[iu(3) & 3u].c.y);

   int g[3][4];
   for (int x = 0; x < 3; x++)
      for (int y = 0; y < 4; y++)
         g[x][y] = x * 10 + y;
   uint gx = iu(4) % 3u, gy = iu(5) & 3u;
   g[gx][gy] = -1;
   oi(13, g[gx][gy]);
   oi(14, g[iu(6) % 3u][iu(7) & 3u]);
   int sum = 0;
   for (int x = 0; x < 3; x++)
      sum += g[x][gy];
   oi(15, sum);
}
