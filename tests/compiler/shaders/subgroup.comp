#version 450
// Subgroup built-ins and operations after a divergent early return (only
// invocations < n are active), and inside divergent control flow.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#define INS 1
#define OUTS 45
#include "map.glsl"

void main()
{
   if (gl_GlobalInvocationID.x >= pc.n)
      return;
   uint x = iu(0);
   uint id = gl_SubgroupInvocationID;
   ou(0, gl_SubgroupSize);
   ou(1, id);
   ou(2, gl_SubgroupID);
   ou(3, gl_NumSubgroups);
   ou(4, uint(subgroupElect()));
   uvec4 b = subgroupBallot((x & 1u) != 0u);
   ou(5, b.x);
   ou(6, b.y);
   ou(7, b.z | b.w);
   ou(8, subgroupBroadcast(x, 0u));
   ou(9, subgroupBroadcastFirst(x));
   ou(10, subgroupShuffle(x, (id + 3u) % gl_SubgroupSize));
   ou(11, subgroupShuffleXor(x, 1u));
   ou(12, subgroupShuffleUp(x, 1u));
   ou(13, subgroupShuffleDown(x, 2u));
   ou(14, subgroupAdd(x));
   oi(15, subgroupMin(int(x)));
   ou(16, subgroupMax(x));
   ou(17, subgroupAnd(x | 0x0f0f0f0fu));
   ou(18, subgroupOr(x & 0x10101010u));
   ou(19, subgroupXor(x));
   ou(20, subgroupInclusiveAdd(x));
   ou(21, subgroupExclusiveAdd(x));
   ou(22, uint(subgroupAll((x & 1u) != 0u)) | uint(subgroupAny((x & 7u) == 0u)) << 1 |
             uint(subgroupAllEqual(x >> 31)) << 2 | uint(subgroupAllEqual(gl_SubgroupSize)) << 3);
   ou(23, subgroupBallotBitCount(b));
   ou(24, subgroupBallotInclusiveBitCount(b));
   ou(25, subgroupBallotExclusiveBitCount(b));
   ou(26, subgroupBallotFindLSB(b));
   ou(27, subgroupBallotFindMSB(b));
   ou(28, uint(subgroupBallotBitExtract(b, (id + 1u) % gl_SubgroupSize)));
   ou(29, uint(subgroupInverseBallot(uvec4(0x55555555u))));
   of(30, subgroupAdd(float(x & 0xffu)));
   ou(31, subgroupInclusiveMax(x));
   ou(32, gl_SubgroupEqMask.x);
   ou(33, gl_SubgroupLtMask.x);
   // no bits past the subgroup: the ballot operations would not count them
   ou(34, gl_SubgroupGeMask.x);
   ou(35, gl_SubgroupGtMask.x);
   if ((x & 3u) != 0u)
      ou(36, subgroupAdd(x));
   else
      ou(36, subgroupOr(x));
   uint acc = 0u;
   for (uint j = 0u; j < (x >> 8) % 5u; j++)
      acc += subgroupAdd(j + 1u);
   ou(37, acc);
   ou(38, subgroupExclusiveMin(x));
   oi(39, subgroupMax(int(x)));
   ou(40, gl_SubgroupGeMask.y | gl_SubgroupGtMask.z | gl_SubgroupGeMask.w);
   ou(41, gl_SubgroupSize == 64u ? gl_SubgroupLeMask.y : 0u);
   // a boolean exclusive AND: true (1) in the first lane, compared as a bool
   bool e = subgroupExclusiveAnd((x & 1u) != 0u);
   ou(42, uint(e != ((x & 2u) != 0u)));
   // ballots with bits past the subgroup: only the subgroup's bits count
   ou(43, subgroupBallotBitCount(uvec4(x | 0x80000000u, ~0u, ~0u, ~0u)));
   ou(44, subgroupBallotFindMSB(uvec4(x | 1u, ~0u, x, x)));
}
