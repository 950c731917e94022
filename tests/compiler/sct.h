/*
 * Helpers for the compiler tests (test_cc_*.c): SPIR-V shaders built from
 * tests/compiler/shaders at build time, compiled with sc_compile and run on
 * the simulated GPU through the execution-unit helpers (tests/hw/eut.h),
 * without Vulkan. The root table, descriptor sets and buffers are laid out
 * by hand as the contract (hw/include/hw_root.h) defines them.
 *
 * The "map" runner covers most of the corpus: a map shader (shaders/map.glsl
 * or the hand-written prologue of the .spvasm files) is a 1-D kernel where
 * invocation i < n reads `ins` words of input at in[i * ins] and writes
 * `outs` words at out[i * outs]; a C function computes what each output
 * must be. It runs every shader at every warp width and local size, with a
 * grid that is not a multiple of the local size.
 */
#ifndef SCT_H
#define SCT_H

#include <stddef.h>

#include "eut.h"
#include "hw_root.h"
#include "sc_compiler.h"

/* The warp widths and local sizes of the test matrix. */
extern const uint32_t sct_widths[4];
extern const uint32_t sct_locals[4];

/* Sanitizer builds run a reduced matrix (see sct_matrix_full). */
#ifdef SCT_SANITIZED
#define SCT_SANITIZED_BUILD 1
#else
#define SCT_SANITIZED_BUILD 0
#endif

/* Whether (width, local size) runs: every pair in normal builds; under
 * sanitizers the corners and a diagonal, so each W and each L still runs. */
bool sct_matrix_pair(uint32_t width, uint32_t local);

/* ---- SPIR-V ---------------------------------------------------------------------- */

/* The words of build/.../shaders/<name>.spv (malloc'd); the test ends if the
 * file is missing (the build compiles every shader). */
uint32_t *sct_spirv(const char *name, size_t *count);

/* SPIR-V assembly (spirv-as syntax) assembled by SPIRV-Tools at run time,
 * for modules a test generates: the words (malloc'd), or NULL after
 * counting a failure naming `what`. */
uint32_t *sct_assemble(const char *text, size_t *count, const char *what);

/* The start of a generated compute module (LocalSize 64): storage
 * buffers %buf0 .. of uint at set 0, bindings 0 .., a push constant read
 * into %n, %gid the invocation's x; the types %void %bool %uint %v3uint,
 * pointers %p_sb_uint %p_fn_uint, constants %u0 %u1 %u3; then `globals`,
 * and the entry block opened with `locals` (its Function variables)
 * first. */
void sct_text_module(struct eut_text *t, uint32_t buffers, const char *globals,
                     const char *locals);

/* Options for one compile: `width`, the given sets, validation on, the
 * SPIRV-Tools optimizer off (the driver's default), the local size (spec
 * constant 0) when local != 0. The spec array lives in the struct. */
struct sct_opts {
   struct sc_options o;
   struct sc_spec_value spec[8];
};
void sct_options(struct sct_opts *so, uint32_t width, uint32_t local,
                 const struct sc_set_layout *sets, uint32_t set_count);
/* Adds a specialization constant (32-bit unless size says otherwise). */
void sct_spec(struct sct_opts *so, uint32_t id, uint32_t size, uint64_t value);

/* Compiles; on failure counts a test failure naming `what` and the
 * compiler's message, and returns false. A successful compile's image must
 * pass isa_program_validate and declare the requested warp width. */
bool sct_compile(const uint32_t *words, size_t count, const struct sc_options *o,
                 struct sc_program *p, const char *what);
/* sct_compile of a named shader. */
bool sct_compile_named(const char *name, const struct sc_options *o, struct sc_program *p,
                       const char *what);

/* ---- the code's shape ------------------------------------------------------------ */

/* How many instructions of a compiled program have opcode op (and, for
 * mod >= 0, modifier mod). */
uint32_t sct_count_op(const struct sc_program *p, uint16_t op, int32_t mod);
/* sct_compile_named of a map shader at W = 32 and local size 64, the
 * optimizer off: for checks of the code generated. */
bool sct_compile_shape(const char *name, struct sc_program *p);

/* ---- the GPU --------------------------------------------------------------------- */

struct sct {
   struct eut eu;
   bool live;
   bool lost;               /* a launch failed: replace the GPU before the next */
   uint32_t launches;
   uint64_t bytes;          /* buffer memory allocated on this GPU */
};

void sct_init(struct sct *s);
void sct_fini(struct sct *s);
/* Call before allocating for a new launch: replaces the GPU when its
 * program cache or memory is running full, or after a failed launch. */
void sct_fresh(struct sct *s);

/* Zeroed GPU memory (host view in *host when host != NULL). */
uint64_t sct_buf(struct sct *s, uint64_t bytes, void *host);
/* GPU memory filled with a 32-bit pattern. */
uint64_t sct_buf_fill(struct sct *s, uint64_t bytes, uint32_t pattern, void *host);

/* Writes a buffer descriptor (struct hw_buffer_descriptor) at byte `offset`
 * of set memory. */
void sct_descriptor(struct sct *s, uint64_t set_va, uint32_t offset, uint64_t va, uint64_t range);
uint64_t sct_root_upload(struct sct *s, const struct hw_root_table *r);

/* Launches p over grid with root; waits. On a fault or timeout counts a
 * failure (with the GPU's report) naming `what`, and returns false. */
bool sct_launch(struct sct *s, const struct sc_program *p, const uint32_t grid[3], uint64_t root,
                const char *what);

/* ---- expected values ------------------------------------------------------------- */

enum sct_cmp {
   SCT_EXACT,    /* the same 32 bits */
   SCT_FLOAT,    /* floats within abs + rel * |want|; NaN matches NaN */
   SCT_SKIP,     /* undefined by the spec: not checked */
};

struct sct_want {
   uint32_t bits;
   uint8_t cmp;
   float abs_tol, rel_tol;
};

static inline struct sct_want sct_u(uint32_t v) { return (struct sct_want){v, SCT_EXACT, 0, 0}; }
static inline struct sct_want sct_i(int32_t v) { return sct_u((uint32_t)v); }
static inline struct sct_want sct_b(bool v) { return sct_u(v ? 1u : 0u); }
/* A float result that must be exact (bit for bit, NaN any NaN). */
static inline struct sct_want sct_fx(float f)
{
   return (struct sct_want){eut_u(f), SCT_FLOAT, 0, 0};
}
static inline struct sct_want sct_f(float f, float abs_tol, float rel_tol)
{
   return (struct sct_want){eut_u(f), SCT_FLOAT, abs_tol, rel_tol};
}
static inline struct sct_want sct_skip(void) { return (struct sct_want){0, SCT_SKIP, 0, 0}; }

/* Whether got matches; no output. */
bool sct_match(uint32_t got, const struct sct_want *w);
/* Checks got against w, counting and (for the first few per `budget`)
 * printing a failure with the context string. Returns the match. */
bool sct_check(uint32_t got, const struct sct_want *w, int *budget, const char *fmt, ...)
   __attribute__((format(printf, 4, 5)));

/* sct_check of an exact 32-bit value. */
#define SCT_CHECK_U(got, want, budget, ...)                                          \
   sct_check((got), &(struct sct_want){(want), SCT_EXACT, 0, 0}, (budget), __VA_ARGS__)

/* A deterministic 32-bit hash, for inputs derived from an index. */
uint32_t sct_hash(uint32_t x);

/* ---- the map runner -------------------------------------------------------------- */

#define SCT_MAX_OUTS 64u
#define SCT_MAX_INS 16u

struct sct_map {
   const char *shader;
   uint32_t ins, outs;
   /* Input words of invocation i (NULL: sct_hash-based random words). */
   void (*init)(uint32_t i, uint32_t *in);
   /* The expected outputs of invocation i, from its inputs. */
   void (*ref)(const uint32_t *in, uint32_t i, struct sct_want *want);
   /* Names of the outputs, for messages (optional, outs entries). */
   const char *const *names;
   /* debugPrintfEXT: bytes of records the printf buffer holds (0: 1 MiB),
    * and a check of what the run printed (optional); the root's
    * printf_base is SCT_PRINTF_BASE. */
   uint32_t printf_capacity;
   bool (*printf_check)(const struct sc_program *p, const struct hw_printf_buffer *b,
                        const uint32_t *in, uint32_t n, const char *what);
};

#define SCT_PRINTF_BASE 100u

/* A map shader's description without printf checks. */
#define SCT_MAP(name, n_in, n_out, init_fn, ref_fn, out_names)                         \
   {.shader = (name), .ins = (n_in), .outs = (n_out), .init = (init_fn), .ref = (ref_fn), \
    .names = (out_names)}

/* The number of invocations a map run uses for local size L: never a
 * multiple of L (for L > 1), a few workgroups. */
uint32_t sct_map_count(uint32_t local);

/* Compiles and runs one map shader at one (width, local size), with
 * optimize on or off; checks every output and that no invocation >= n
 * wrote. Returns false if anything failed. */
bool sct_map_run(struct sct *s, const struct sct_map *m, uint32_t width, uint32_t local,
                 bool optimize);
/* sct_map_run over the whole matrix (sct_matrix_pair), each pair with the
 * optimizer off and on. Prints one line per shader. */
void sct_map_matrix(struct sct *s, const struct sct_map *m);

/* The two-binding storage-buffer layout of the map shaders (set 0:
 * binding 0 at descriptor offset 0, binding 1 at 16). */
extern const struct sc_set_layout sct_map_layout;

#endif
