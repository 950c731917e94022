/*
 * Execution units, internal to hw/: decoded programs, warps, CTAs, and the
 * interpreter instances (one per warp width and vector ISA).
 */
#ifndef HW_EU_H
#define HW_EU_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "hw_isa.h"
#include "hw_jit.h"
#include "hw_mem.h"

/* An instruction ready for the interpreter: its handler's address (direct
 * threading), the instruction itself, and the compiled block that starts
 * here, if any (hw_jit.h). */
struct hw_dinst {
   const void *handler;
   struct isa_inst in;
   const struct hw_jit_block *jit;
};

/* A validated, decoded program, cached per GPU by (VA, program id). */
struct hw_program {
   uint64_t va, id;
   struct isa_program_header header;
   struct hw_dinst *code;           /* header.inst_count + 1 (a trailing EXIT) */
   struct isa_line *lines;          /* header.line_count */
   struct hw_jit *jit;              /* compiled ALU runs (hw_jit.h), or NULL */
   /* Vector and uniform registers a CTA must start with zeroed (bit r of
    * word r / 64); all vector registers when zero_all. See
    * find_zeroed_registers(). */
   uint64_t zero_vregs[ISA_MAX_VREGS / 64];
   uint64_t zero_uregs[ISA_MAX_UREGS / 64];
   bool zero_all;
   bool zero_some_vregs, zero_some_uregs;   /* a bit set in zero_vregs, zero_uregs */
   _Atomic uint32_t refs;
   _Atomic bool barrier_warned;     /* "returned invocations count as arrived" */
   struct hw_program *next;         /* in the GPU's cache */
};

#define HW_TILE_SITES 8u

enum hw_mask_kind { HW_MASK_IF, HW_MASK_LOOP, HW_MASK_SWITCH };

struct hw_mask_entry {
   uint64_t saved;     /* exec to restore */
   uint64_t other;     /* IF: the else lanes; LOOP, SWITCH: lanes that broke out */
   uint64_t cont;      /* LOOP: lanes that continued */
   uint32_t kind;
};

enum hw_warp_state { HW_WARP_RUNNING, HW_WARP_AT_BARRIER, HW_WARP_EXITED };

struct hw_warp {
   uint32_t pc;
   uint32_t sp;                     /* mask stack entries in use */
   uint64_t exec;                   /* lanes running */
   uint64_t alive;                  /* lanes not returned */
   uint32_t state;                  /* enum hw_warp_state */
   uint32_t index;                  /* warp number within the CTA */
   uint32_t barrier_pc;             /* the BAR it waits at */
   uint32_t clock_hi;               /* the high half of its last S2R CLOCK_LO */
   uint32_t *v;                     /* vector registers: [reg][W] */
   uint32_t *u;                     /* uniform registers */
   struct hw_mask_entry *stack;
   int32_t *lane_mask;              /* [W]: -1 where exec is set, for blends */
   /* Tile kinds compiled blocks found for this warp at the program's
    * cached tile sites (hw_jit.c, plan_tiles: registers nothing on the way
    * from the block back to it writes): bit s of tile_known says
    * tile_cache[s] holds one. Cleared as the warp starts a CTA. */
   uint8_t tile_known;
   uint8_t tile_cache[HW_TILE_SITES];
};

/* What the launch descriptor says, decoded. */
struct hw_launch_params {
   uint32_t grid[3], base[3], size[3];
   uint32_t shared_bytes, private_bytes;
   uint64_t root_va;
};

struct hw_fault_info {
   bool set;
   uint32_t warp, lane, pc;
   char what[256];
};

#define HW_PAGE_SITES 8u
#define HW_HOST_SLOTS 4u
#define HW_BYREF_SLOTS 4u

/* One CTA being run by one worker. */
struct hw_cta {
   const struct hw_program *prog;
   const struct hw_launch_params *params;
   const struct hw_mem *mem;
   uint32_t group[3];
   uint8_t *shared;
   uint8_t *private_mem;            /* private_bytes per invocation */
   uint32_t warp_count;
   struct hw_warp *warps;
   struct hw_warp *warps_end;       /* warps + warp_count: where compiled blocks' walks stop */
   uint64_t budget;                 /* back edges until the next watchdog check */
   /* Counted by the interpreter, added to the worker's counters at the end
    * of the CTA. insts counts dispatches to a next instruction; each call
    * of the interpreter starts one more (run_cta adds those). */
   uint64_t insts, global_bytes;
   uint64_t jit_exits;              /* accesses compiled runs left to the interpreter */
   uint64_t jit_insts;              /* instructions compiled runs ran (in insts too) */
   uint64_t barrier_waits;          /* warps that stopped at a barrier */
   uint64_t jit_sweeps;             /* barriers released by a compiled block's sweep */
   /* The warp the interpreter ran last: at a barrier or an exit it goes on
    * with the next running warp (in index order, as run_warps would)
    * rather than return, and returns for the warp this names. */
   uint32_t current;
   /* A compiled block's sweep (hw_jit.c, emit_sweep_bar): set while the
    * CTA's warps run a block ending at a BAR in turn, warps before the
    * current one past its BAR but not marked waiting there; chained while
    * a sweep went on into the next block itself, the interpreter's pc
    * still the first block's. Both clear whenever a block returns. */
   uint8_t sweeping, chained;
   /* The VA page each of the program's first HW_PAGE_SITES global access
    * sites last found live in this CTA, or UINT64_MAX (hw_jit.c,
    * emit_check): the CTA's other warps' accesses there, in that page,
    * need no more check. */
   uint64_t pages[HW_PAGE_SITES];
   /* The root table's window found live in this CTA (hw_jit.c,
    * emit_scalar_load): its byte offsets [root_lo, root_hi) from the
    * launch's root VA, whose host address is root_host (empty: lo
    * INT64_MAX). An LDR inside it needs no more check. */
   int64_t root_lo, root_hi;
   uint64_t root_host;
   /* A compiled block's full-warp global accesses' host addresses, for a
    * later access of the block to the same address (hw_jit.c,
    * plan_reuse); 0 where the access went chunk by chunk. */
   uint64_t hosts[HW_HOST_SLOTS];
   /* Where a compiled block's full-warp LDGs left the words they loaded,
    * for its ALU segment that reads them (hw_jit.c, plan_byref): the
    * global memory itself, or the register where a slower path put them. */
   uint64_t byref[HW_BYREF_SLOTS];
   /* Whether the loop indices of the compiled block running have lane
    * stride 1 (hw_jit.c, emit_indexed): set at its entry. */
   uint8_t indexed;
   /* Per invariant LDS address register of the block running: 1 when
    * each chunk of 8 lanes holds one offset, 2 when consecutive offsets
    * (6 when the whole warp's are), all inside shared memory for its
    * LDSs; 3 when other offsets, all inside (gathered); 0 else (hw_jit.c,
    * emit_tile_kinds): set at its entry. */
   uint8_t tile_kind[4];
   struct hw_fault_info fault;
};

enum hw_run_status {
   HW_RUN_BARRIER,   /* the warp waits at a barrier */
   HW_RUN_EXIT,      /* the warp is done */
   HW_RUN_FAULT,     /* cta->fault says why */
   HW_RUN_YIELD,     /* the budget ran out: check the watchdog, then resume */
};

/* Runs a warp until it reaches a barrier, exits, faults or yields, going
 * on with the CTA's next running warps after a barrier or an exit (the
 * status is then cta->current's: a warp at a barrier or exited is marked
 * so, and its barrier wait counted, by the interpreter). With
 * cta == NULL, returns nothing and fills labels[] with its handler
 * addresses instead, for decoding. */
typedef enum hw_run_status (*hw_interp_fn)(struct hw_cta *cta, struct hw_warp *warp,
                                           const void **labels);

#define HW_DECLARE_INTERP(w, isa) \
   enum hw_run_status hw_interp_w##w##_##isa(struct hw_cta *, struct hw_warp *, const void **);
#define HW_DECLARE_INTERPS(isa) \
   HW_DECLARE_INTERP(8, isa) HW_DECLARE_INTERP(16, isa) HW_DECLARE_INTERP(32, isa) \
   HW_DECLARE_INTERP(64, isa)
HW_DECLARE_INTERPS(generic)
#if defined(__x86_64__)
HW_DECLARE_INTERPS(avx2)
HW_DECLARE_INTERPS(avx512)
#endif

#endif
