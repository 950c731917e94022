/*
 * The execution units' native tier: runs of vector ALU instructions
 * compiled to x86-64 AVX2 code (and AVX-512 code where the host has it:
 * hw_jit_compile) when a program is decoded.
 *
 * The interpreter stays the reference and runs everything else. A block
 * replaces a run of consecutive ALU instructions whose destinations are
 * vector registers, or uniform ones computed from uniform registers and
 * immediates (at least one vector instruction per run); the run's first instruction gets the interpreter's
 * JIT handler, which calls the block when every lane of the warp runs and
 * otherwise goes on with that instruction's own handler (the rest of the
 * run keeps its handlers, so partial warps are interpreted as before;
 * runs start at jump targets). ALU instructions cannot fault; special
 * register reads (S2R: lane and local index, and the uniform ones) join
 * runs too. A run may also take global and shared loads and stores of
 * one dword per lane, and loads into uniform registers (LDR, and LDG from
 * a uniform address): the block does a full warp's access to consecutive
 * live addresses (a page found live is kept for the CTA's other warps;
 * a later trip's prefetched, hw_jit.c emit_prefetch)
 * or shared offsets, chunk by chunk when only its chunks
 * of 8 lanes are consecutive (or, LDG, one address each), by a gather for
 * other shared loads (a warp that gathered at an LDS once gathers there
 * straight away), or a uniform load from live memory, itself (as the
 * interpreter does, counted the same) and returns at any other, which the
 * interpreter then runs from that instruction on, faults included. BRK
 * and CONT that no lane takes and BRA_U not taken go on inside a block;
 * a block from a loop's head to its back edge loops itself; a block
 * follows one JMP to its target; a block may take one IF ... ENDIF
 * whole when every lane's condition is set or none is; a block may end
 * at a BAR or an EXIT, where the CTA's next warp goes on (see fn below).
 * What a block knows of its registers' lanes (lane strides, also within
 * chunks of 8 lanes, high halves all one: hw_jit.c plan_strides, from the
 * block's code and the program's straight prefix) spares lane-by-lane
 * checks, also through a loop whose indices its entry finds of stride 1,
 * and lets it gather or scatter strided (vec4) accesses; LDSs of
 * registers it never
 * writes take the shape its entry finds for them (tile loads), and with
 * its ALU instructions around them form one fused chunk loop per shape
 * (hw_jit.c emit_fused); and an access to an earlier one's address reuses
 * its host address.
 * With SOFTGPU_PERF_MAP, blocks are named for perf (hw_jit_compile).
 *
 * A block works lane-chunk by lane-chunk: eight lanes (16 in zmm code) at
 * a time it loads the registers the run reads before writing into AVX
 * registers, computes the whole run there, and stores the registers it
 * wrote that are live after it (hw_jit.c, liveness). That is exact
 * because an ALU instruction's lane l reads only lane l of its sources.
 * Uniform instructions of the run (uniform destination and sources, the
 * loop counters and their compares) run once, as scalar code, before the
 * chunks; each vector instruction reads the uniform values as of its
 * place in the run, broadcast in between.
 * Results are bit for bit the interpreter's, NaNs aside (any NaN for a
 * NaN, as the ISA says).
 */
#ifndef HW_JIT_H
#define HW_JIT_H

#include <stdbool.h>
#include <stdint.h>

struct hw_cta;
struct hw_dinst;
struct hw_warp;

/* A compiled run: fn(v, u, cta, warp) runs it on a warp's vector registers
 * v ([reg][W]) and uniform registers u, all lanes, and returns how many of
 * its instructions it ran (count, or fewer when it left an access to the
 * interpreter; 0 when that was its first), or HW_JIT_RESUME.
 *
 * A block ending at a BAR or an EXIT goes on with the CTA's next running
 * warp itself when that warp waits at the block's start with every lane
 * running (the warp at the barrier, or exited, marked and counted as the
 * interpreter's BAR or EXIT does):
 * the count it returns is then cta->current's, which entered the block at
 * the same pc. HW_JIT_RESUME says the block has counted every instruction
 * it ran (cta->insts and jit_insts) and stored the pc to go on at: the
 * interpreter goes on with warp cta->current at its pc (after a BAR or
 * EXIT whose next warp waits elsewhere, or when the block left an instruction to the
 * interpreter after following a JMP, where a count would not say the
 * pc).
 *
 * A block ending at a BAR that the CTA's first warp enters while every
 * other warp runs at its start with every lane running sweeps: the warps
 * run it in turn to the BAR, marked there only where one leaves the block
 * before (cta->sweeping, hw_jit.c emit_sweep_bar); after the last, the
 * first goes on at the BAR's next pc, in the block starting there where
 * that one sweeps too (chained: the block then returns HW_JIT_RESUME,
 * never a count, since the interpreter's pc is the first block's). */
#define HW_JIT_RESUME UINT32_MAX
struct hw_jit_block {
   uint32_t (*fn)(uint32_t *v, uint32_t *u, struct hw_cta *cta, const struct hw_warp *warp);
   const void *handler;   /* the run's first instruction's own handler */
   uint32_t count;        /* instructions the block replaces */
};

/* Whether this host can run compiled blocks (x86-64 with AVX2 and FMA). */
bool hw_jit_supported(void);

/*
 * Compiles the runs of code[0..n) (a decoded program of warp width w) that
 * the native tier handles, code[0..prefix_end) being its straight prefix
 * (hw_eu.c straight_prefix: run once by every warp from the start, with
 * its first masks); with avx512 (the host has AVX-512F and runs the
 * AVX-512 interpreter), ALU segments of warps of 16 lanes or more are zmm
 * code, 16 lanes a chunk; each run's first instruction gets handler
 * jit_label and its block in .jit. Returns the program's compiled code, to
 * free with hw_jit_free, or NULL when nothing was compiled (no such run,
 * or no executable memory: then the program is interpreted, as before).
 * *counts receives the number of blocks and of their zmm segments. With
 * perf_map, each block is named in /tmp/perf-<pid>.map, the file perf
 * reads to name code it has no symbols for, as softgpu_p<id>_w<w>_pc<pc>
 * (id: the program's).
 */
struct hw_jit_counts {
   uint32_t blocks;   /* blocks compiled */
   uint32_t wide;     /* ALU segments of theirs in zmm code */
   uint32_t stepped;  /* global accesses of theirs prefetched by their known warp step */
};
struct hw_jit *hw_jit_compile(struct hw_dinst *code, uint32_t n, uint32_t prefix_end, uint32_t w,
                              bool avx512, const void *jit_label, bool perf_map, uint64_t id,
                              struct hw_jit_counts *counts);
void hw_jit_free(struct hw_jit *j);

#endif
