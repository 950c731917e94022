/*
 * Machine IR clean-up between translation and register allocation.
 *
 * Translation is deliberately literal: every SPIR-V load of a promoted
 * variable becomes a MOV, every access chain recomputes its address, every
 * store to a variable copies a temporary. The interpreter pays for each
 * instruction it dispatches, so this pass removes what is redundant, within
 * basic blocks (straight-line code that runs under one execution mask):
 *
 *   - copy propagation: uses of d after `mov d, s` read s instead;
 *   - common subexpressions: an ALU instruction repeating an earlier one
 *     with the same operands reuses its result;
 *   - store-back folding: `op t, ...; mov v, t` becomes `op v, ...` when t
 *     has no other use, and `cmp t, ...; xor d, t, #1` the inverse
 *     comparison into d;
 *   - multiply-add contraction: `fmul t, a, b; fadd d, t, c` becomes
 *     `ffma d, a, b, c` when t has no other use and neither instruction
 *     comes from one decorated NoContraction;
 *   - a RET right before the final EXIT goes;
 *   - dead code: pure instructions whose result nobody reads;
 *   - loop-invariant code motion: pure instructions (and loads of push
 *     constants) of a loop whose operands the loop does not write move
 *     before its LOOP.
 *
 * and, after register allocation, uniform loops: loops that every lane
 * leaves together run on uniform jumps (sc_mir_uniform_loops, below).
 *
 * Staying inside a block keeps every rewrite sound under SIMT execution:
 * the instructions of a block run under the same mask, so a lane that reads
 * the replacement sees the value it would have read. Rewrites only ever
 * replace registers defined once (SSA temporaries), never a promoted
 * variable's or a phi's register, which several instructions write under
 * different masks.
 */
#include "sc_internal.h"

#include <stdlib.h>
#include <string.h>

struct opt {
   struct sc_mir *mir;
   uint32_t *defs;              /* per register: instructions writing it */
   uint32_t *uses;              /* per register: operands reading it */
   uint8_t *leader;             /* per instruction: begins a basic block */
   uint8_t *dead;               /* per instruction: to be removed */
   uint32_t *anchor;            /* per instruction: moved to just before this one, or NONE */
   uint32_t *written;           /* per register: scratch of hoist_loop */
   /* Common subexpressions (eliminate_common): per register, the writes
    * the forward scan has passed (its version); a hash table of the
    * instructions seen in the current block, by what they compute from
    * which versions of their sources. */
   uint32_t *version;
   uint32_t *at_version;        /* per instruction: its result's version once written */
   uint32_t *at_dst;            /* per instruction: the register it wrote then (a fold
                                   may retarget it later: then it stands for nothing) */
   uint32_t *table;             /* instruction indices, NONE: empty */
   uint32_t table_mask;
   uint32_t block;              /* the current block's first instruction */
   /* Reads to replace (replace_reads), per register: by what, from which
    * instruction, in which block; and per register the last instruction
    * the scan passed that writes it (+1; 0: none), which ends them. */
   struct sc_opnd *subst;
   uint32_t *subst_from, *subst_block, *last_write;
};

#define NONE UINT32_MAX

/* Counts n units of work (instructions or registers visited) against the
 * clean-up passes (sc_program.work). */
static void work(const struct sc_mir *mir, uint64_t n)
{
   ((struct sc_mir *)mir)->work[SC_PASS_MIR_OPT] += n;
}

static bool is_reg(struct sc_opnd o) { return o.kind == SC_REG; }

static enum isa_class cls_of(const struct sc_minst *in) { return isa_op_info[in->op].cls; }

/* Instructions with no effect but their result: safe to remove when it is
 * unused, and to reuse when repeated. Special registers (lane, warp and
 * workgroup ids, sizes, the root table) are constant for a warp. */
static bool pure(const struct sc_minst *in)
{
   enum isa_class c = cls_of(in);
   return c == ISA_CLASS_ALU || c == ISA_CLASS_ALU64 || in->op == ISA_OP_S2R;
}

static struct sc_opnd *src(struct sc_minst *in, int k)
{
   return k == 0 ? &in->a : k == 1 ? &in->b : &in->c;
}

static bool writes(const struct sc_minst *in, uint32_t reg)
{
   return is_reg(in->dst) && in->dst.value == reg;
}

static bool reads(const struct sc_minst *in, uint32_t reg)
{
   return (is_reg(in->a) && in->a.value == reg) || (is_reg(in->b) && in->b.value == reg) ||
          (is_reg(in->c) && in->c.value == reg);
}

static void count(struct opt *o)
{
   const struct sc_mir *mir = o->mir;
   memset(o->defs, 0, mir->reg_count * sizeof(*o->defs));
   memset(o->uses, 0, mir->reg_count * sizeof(*o->uses));
   work(mir, mir->reg_count + mir->count);
   for (uint32_t i = 0; i < mir->count; i++) {
      struct sc_minst *in = &mir->code[i];
      if (o->dead[i])
         continue;
      if (is_reg(in->dst))
         o->defs[in->dst.value]++;
      for (int k = 0; k < 3; k++) {
         if (is_reg(*src(in, k)))
            o->uses[src(in, k)->value]++;
      }
   }
}

/* Blocks begin at branch targets and after every flow instruction (which
 * changes the mask). */
static void find_blocks(struct opt *o)
{
   const struct sc_mir *mir = o->mir;
   memset(o->leader, 0, mir->count + 1);
   work(mir, mir->count + mir->label_count);
   o->leader[0] = 1;
   for (uint32_t l = 0; l < mir->label_count; l++) {
      if (mir->labels[l] <= mir->count)
         o->leader[mir->labels[l]] = 1;
   }
   for (uint32_t i = 0; i < mir->count; i++) {
      if (cls_of(&mir->code[i]) == ISA_CLASS_FLOW || cls_of(&mir->code[i]) == ISA_CLASS_SYNC)
         o->leader[i + 1] = 1;
   }
}

/* Whether `from` may replace a read of `to` in instruction in: the same
 * value, and an operand kind the instruction takes there. ALU
 * instructions read any kind; loads and stores only vector registers for
 * vector ones (a uniform address is flagged in the modifier, and stores
 * keep their fast path only with vector data). No rewrite turns a
 * uniform read into a vector one. */
static bool substitutable(const struct opt *o, const struct sc_minst *in, uint32_t from)
{
   enum isa_class c = cls_of(in);
   if (c == ISA_CLASS_ALU || c == ISA_CLASS_ALU64)
      return true;
   return c == ISA_CLASS_MEM && !o->mir->regs[from].uniform;
}

/*
 * Replaces the reads of register `old` by `with` (a register; each read
 * keeps its part unless `old` is a single part) from instruction `from`
 * to the end of its block, stopping after an instruction that writes
 * either. Lazily: the substitution is recorded, and the forward scan
 * applies it to each instruction it reaches (apply_substitutions), so a
 * rewrite costs one step however long the block (walking to the block's
 * end at each copy or repeat made a long block cost its length squared).
 * The scan is at `from - 1` or `from - 2` when this is called.
 *
 * Until the scan has rewritten them, reads of old still count as old's;
 * `with` is credited with them now (uses[with] += uses[old]), so that no
 * rewrite in between takes `with` for unread (fold_store_back folds only a
 * result read once). The counts are exact again after the scan (count()).
 * Returns false when old has no reads to replace.
 */
static bool replace_reads(struct opt *o, uint32_t from, uint32_t old, struct sc_opnd with)
{
   if (!o->uses[old] || from >= o->mir->count)
      return false;
   o->subst[old] = with;
   o->subst_from[old] = from;
   o->subst_block[old] = o->leader[from] ? from : o->block;
   o->uses[with.value] += o->uses[old];
   work(o->mir, 1);
   return true;
}

/* The recorded substitutions that hold at instruction j (no write to
 * either register since they were recorded, the same block), applied to
 * its reads, following chains (a copy of a copy). */
static void apply_substitutions(struct opt *o, uint32_t j)
{
   struct sc_mir *mir = o->mir;
   struct sc_minst *in = &mir->code[j];
   for (int k = 0; k < 3; k++) {
      struct sc_opnd *s = src(in, k);
      for (int chain = 0; chain < 8 && is_reg(*s); chain++) {
         uint32_t old = s->value;
         struct sc_opnd with = o->subst[old];
         work(mir, 1);
         /* last_write is 1 + the writer's index: a write at from - 1 or
          * before is the one the substitution is about */
         if (!is_reg(with) || j < o->subst_from[old] || o->subst_block[old] != o->block ||
             o->last_write[old] > o->subst_from[old] ||
             o->last_write[with.value] > o->subst_from[old] || !substitutable(o, in, with.value))
            break;
         uint32_t part = mir->regs[old].size == 1 ? with.part : s->part;
         *s = (struct sc_opnd){SC_REG, (uint8_t)part, with.value};
         o->uses[old]--;
      }
   }
}

/* `mov d, s`: later reads of d in the block read s. */
static bool propagate_copy(struct opt *o, uint32_t i)
{
   struct sc_minst *in = &o->mir->code[i];
   const struct sc_vreg *regs = o->mir->regs;
   if (in->op != ISA_OP_MOV || !is_reg(in->dst) || !is_reg(in->a) || in->dst.part ||
       regs[in->dst.value].size != 1 || o->defs[in->dst.value] != 1 ||
       in->a.value == in->dst.value ||
       (regs[in->dst.value].uniform && !regs[in->a.value].uniform))
      return false;
   return replace_reads(o, i + 1, in->dst.value, in->a);
}

/* `op t, ...` followed in the block by `mov v, t`, t read nowhere else:
 * op writes v directly, provided nothing between reads or writes v. */
static bool fold_store_back(struct opt *o, uint32_t i)
{
   struct sc_mir *mir = o->mir;
   struct sc_minst *mv = &mir->code[i];
   if (mv->op != ISA_OP_MOV || !is_reg(mv->dst) || !is_reg(mv->a) || mv->a.part)
      return false;
   uint32_t t = mv->a.value, v = mv->dst.value;
   if (t == v || o->defs[t] != 1 || o->uses[t] != 1 || mir->regs[t].size != 1 ||
       (mir->regs[v].uniform && !mir->regs[t].uniform))
      return false;
   for (uint32_t k = i; k-- > 0;) {
      struct sc_minst *in = &mir->code[k];
      work(mir, 1);
      if (o->dead[k])
         continue;
      if (writes(in, t)) {
         if (cls_of(in) != ISA_CLASS_ALU || in->dst.part)
            return false;
         in->dst = mv->dst;
         o->defs[t]--;
         o->uses[t]--;
         o->dead[i] = 1;
         return true;
      }
      if (reads(in, v) || writes(in, v) || o->leader[k])
         return false;
   }
   return false;
}

static bool same_opnd(struct sc_opnd x, struct sc_opnd y)
{
   return x.kind == y.kind && x.part == y.part && x.value == y.value;
}

static bool same_inst(const struct sc_minst *p, const struct sc_minst *in)
{
   return p->op == in->op && p->mod == in->mod && p->imm == in->imm && same_opnd(p->a, in->a) &&
          same_opnd(p->b, in->b) && same_opnd(p->c, in->c);
}

/* The version of an operand's register at the scan's position (0 for
 * immediates): two reads of one version read the same value. */
static uint32_t opnd_version(const struct opt *o, struct sc_opnd x)
{
   return is_reg(x) ? o->version[x.value] : 0;
}

static uint32_t cse_hash(const struct opt *o, const struct sc_minst *in)
{
   uint32_t h = 2166136261u;
   const uint32_t f[] = {
      in->op, in->mod, in->imm, o->block,
      in->a.kind | (uint32_t)in->a.part << 8, in->a.value, opnd_version(o, in->a),
      in->b.kind | (uint32_t)in->b.part << 8, in->b.value, opnd_version(o, in->b),
      in->c.kind | (uint32_t)in->c.part << 8, in->c.value, opnd_version(o, in->c)};
   for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++)
      h = (h ^ f[k]) * 16777619u;
   return h;
}

/* Whether instruction i may stand for later repeats: its result in a whole
 * register it does not also read. */
static bool cse_candidate(const struct opt *o, uint32_t i)
{
   const struct sc_minst *in = &o->mir->code[i];
   return pure(in) && in->op != ISA_OP_MOV && is_reg(in->dst) && !in->dst.part &&
          !reads(in, in->dst.value);
}

/* Whether a source of instruction i was written after instruction k
 * (last_write holds 1 + the last writer's index the scan passed). */
static bool source_written_since(const struct opt *o, const struct sc_minst *in, uint32_t k)
{
   for (int s = 0; s < 3; s++) {
      const struct sc_opnd *x = src((struct sc_minst *)in, s);
      if (is_reg(*x) && o->last_write[x->value] > k)
         return true;
   }
   return false;
}

/* Whether earlier instruction k computes what instruction i does, from
 * the same values (no source written since k), with its result still in
 * the register it wrote: the hash only narrows the search, this decides. */
static bool cse_same(const struct opt *o, uint32_t k, uint32_t i)
{
   const struct sc_mir *mir = o->mir;
   const struct sc_minst *p = &mir->code[k], *in = &mir->code[i];
   /* k >= block: in this block (blocks are ranges of the code), never one
    * another mask ran, whatever the hash table's probing met */
   return k >= o->block && !o->dead[k] && cse_candidate(o, k) && same_inst(p, in) &&
          p->dst.value == o->at_dst[k] && o->version[p->dst.value] == o->at_version[k] &&
          !source_written_since(o, in, k);
}

/*
 * A repeated ALU instruction: later reads in the block use the first
 * result; the repeat goes if nothing else reads it. Value numbering: the
 * scan keeps, per block, the first instruction computing each
 * (operation, sources at their versions), so each instruction costs one
 * lookup however long the block (walking back over the block made a
 * block of n instructions cost n^2). The first, not the latest: an
 * unrolled loop repeats a computation many times, and each repeat reads
 * the first result, not the one before it (which would then stay live).
 */
static bool eliminate_common(struct opt *o, uint32_t i)
{
   struct sc_minst *in = &o->mir->code[i];
   if (!cse_candidate(o, i) || o->defs[in->dst.value] != 1)
      return false;
   uint32_t slot = cse_hash(o, in) & o->table_mask;
   work(o->mir, 1);
   for (uint32_t k; (k = o->table[slot]) != NONE; slot = (slot + 1) & o->table_mask) {
      work(o->mir, 1);
      if (!cse_same(o, k, i))
         continue;
      const struct sc_mir *mir = o->mir;
      const struct sc_minst *p = &mir->code[k];
      if (mir->regs[p->dst.value].size != mir->regs[in->dst.value].size ||
          (mir->regs[in->dst.value].uniform && !mir->regs[p->dst.value].uniform))
         return false;
      return replace_reads(o, i + 1, in->dst.value, p->dst);
   }
   o->table[slot] = i;
   return false;
}

/*
 * Contraction. SPIR-V allows it wherever NoContraction is absent: "Apply
 * to an arithmetic instruction to indicate the operation cannot be
 * combined with another instruction to form a single operation. For
 * example, if applied to an OpFMul, that multiply can't be combined with
 * an addition to yield a fused multiply-add operation." (SPIR-V 3.20,
 * Decoration). A shader built without an optimizer keeps its a * b + c as
 * FMul and FAdd, one built with one may carry it as Fma already; fusing
 * here makes both run the same instructions. The multiply is looked for
 * in a bounded window before the add, so that the pass stays linear in a
 * block of any length.
 */
#define FUSE_WINDOW 32u

static bool fuse_multiply_add(struct opt *o, uint32_t i)
{
   struct sc_mir *mir = o->mir;
   struct sc_minst *add = &mir->code[i];
   if (add->op != ISA_OP_FADD || add->exact || !is_reg(add->dst) || add->dst.part)
      return false;
   for (int side = 0; side < 2; side++) {
      struct sc_opnd t = side ? add->b : add->a, other = side ? add->a : add->b;
      if (!is_reg(t) || t.part || o->defs[t.value] != 1 || o->uses[t.value] != 1 ||
          (is_reg(other) && other.value == t.value))
         continue;
      for (uint32_t k = i, seen = 0; k > 0 && !o->leader[k] && seen < FUSE_WINDOW; seen++) {
         struct sc_minst *mul = &mir->code[--k];
         work(mir, 1);
         if (o->dead[k] || !writes(mul, t.value))
            continue;
         if (mul->op != ISA_OP_FMUL || mul->exact || mul->dst.part)
            break;
         /* the multiply's sources must still hold their values at the add */
         work(mir, i - k);
         for (uint32_t j = k + 1; j < i; j++) {
            const struct sc_minst *between = &mir->code[j];
            if (!o->dead[j] && is_reg(between->dst) &&
                ((is_reg(mul->a) && between->dst.value == mul->a.value) ||
                 (is_reg(mul->b) && between->dst.value == mul->b.value)))
               return false;
         }
         add->op = ISA_OP_FFMA;
         add->a = mul->a;
         add->b = mul->b;
         add->c = other;
         /* the add reads the multiply's sources instead: their counts hold */
         o->uses[t.value]--;
         o->defs[t.value]--;
         o->dead[k] = 1;
         return true;
      }
   }
   return false;
}

/* Whether instructions i and i + 1 write the two halves of one pair
 * register, each from its own pure instruction (a buffer offset's 64-bit
 * index * stride, sc_translate.c scaled64), the pair written nowhere
 * else: its register. */
static bool pair_def(const struct opt *o, uint32_t i, uint32_t *reg)
{
   const struct sc_mir *mir = o->mir;
   if (i + 1 >= mir->count || o->leader[i + 1] || o->dead[i] || o->dead[i + 1])
      return false;
   const struct sc_minst *lo = &mir->code[i], *hi = &mir->code[i + 1];
   if (!pure(lo) || !pure(hi) || !is_reg(lo->dst) || !is_reg(hi->dst) ||
       lo->dst.value != hi->dst.value || lo->dst.part != 0 || hi->dst.part != 1 ||
       mir->regs[lo->dst.value].size != 2 || reads(lo, lo->dst.value) ||
       reads(hi, lo->dst.value))
      return false;
   *reg = lo->dst.value;
   return true;
}

/* eliminate_common for a pair written half by half (pair_def) at i: an
 * earlier pair of the block computed from the same, unchanged, sources. */
static bool eliminate_common_pair(struct opt *o, uint32_t i)
{
   const struct sc_mir *mir = o->mir;
   uint32_t r, e;
   if (!pair_def(o, i, &r) || o->defs[r] != 2)
      return false;
   const struct sc_minst *lo = &mir->code[i], *hi = &mir->code[i + 1];
   for (uint32_t k = i; k > 0 && !o->leader[k];) {
      const struct sc_minst *p = &mir->code[--k];
      work(mir, 1);
      if (!o->dead[k] && is_reg(p->dst) && (reads(lo, p->dst.value) || reads(hi, p->dst.value)))
         return false;   /* a source changes here: earlier pairs read other values */
      if (k + 2 > i || !pair_def(o, k, &e) || !same_inst(p, lo) || !same_inst(p + 1, hi) ||
          (mir->regs[r].uniform && !mir->regs[e].uniform))
         continue;
      work(mir, i - k);
      for (uint32_t j = k + 2; j < i; j++) {
         if (!o->dead[j] && writes(&mir->code[j], e))
            return false;
      }
      return replace_reads(o, i + 2, r, (struct sc_opnd){SC_REG, 0, e});
   }
   return false;
}

/* The comparison that is false exactly where mod is true, or -1. Float
 * comparisons swap ordered and unordered, so NaN operands invert too. */
static int inverse_comparison(uint16_t op, uint16_t mod)
{
   static const uint8_t icmp[ISA_ICMP_COUNT] = {
      [ISA_ICMP_EQ] = ISA_ICMP_NE, [ISA_ICMP_NE] = ISA_ICMP_EQ,
      [ISA_ICMP_LT_S] = ISA_ICMP_GE_S, [ISA_ICMP_GE_S] = ISA_ICMP_LT_S,
      [ISA_ICMP_LE_S] = ISA_ICMP_GT_S, [ISA_ICMP_GT_S] = ISA_ICMP_LE_S,
      [ISA_ICMP_LT_U] = ISA_ICMP_GE_U, [ISA_ICMP_GE_U] = ISA_ICMP_LT_U,
      [ISA_ICMP_LE_U] = ISA_ICMP_GT_U, [ISA_ICMP_GT_U] = ISA_ICMP_LE_U,
   };
   static const int8_t fcmp[ISA_FCMP_COUNT] = {
      [ISA_FCMP_OEQ] = ISA_FCMP_UNE, [ISA_FCMP_UNE] = ISA_FCMP_OEQ,
      [ISA_FCMP_ONE] = ISA_FCMP_UEQ, [ISA_FCMP_UEQ] = ISA_FCMP_ONE,
      [ISA_FCMP_OLT] = ISA_FCMP_UGE, [ISA_FCMP_UGE] = ISA_FCMP_OLT,
      [ISA_FCMP_OLE] = ISA_FCMP_UGT, [ISA_FCMP_UGT] = ISA_FCMP_OLE,
      [ISA_FCMP_OGT] = ISA_FCMP_ULE, [ISA_FCMP_ULE] = ISA_FCMP_OGT,
      [ISA_FCMP_OGE] = ISA_FCMP_ULT, [ISA_FCMP_ULT] = ISA_FCMP_OGE,
      [ISA_FCMP_ORD] = ISA_FCMP_UNO, [ISA_FCMP_UNO] = ISA_FCMP_ORD,
      [ISA_FCMP_ISNAN] = -1, [ISA_FCMP_ISINF] = -1,
   };
   if (op == ISA_OP_ICMP && mod < ISA_ICMP_COUNT)
      return icmp[mod];
   if (op == ISA_OP_FCMP && mod < ISA_FCMP_COUNT)
      return fcmp[mod];
   return -1;
}

/* `cmp t, a, b; ...; xor d, t, #1` (a negated condition), t read nowhere
 * else: the comparison computes the negation into d, if nothing between
 * changes a or b or touches d. */
static bool fold_negation(struct opt *o, uint32_t i)
{
   struct sc_mir *mir = o->mir;
   struct sc_minst *x = &mir->code[i];
   if (x->op != ISA_OP_XOR || x->b.kind != SC_IMM || x->b.value != 1 || !is_reg(x->a) ||
       x->a.part || !is_reg(x->dst) || x->dst.part)
      return false;
   uint32_t t = x->a.value, d = x->dst.value;
   if (t == d || o->defs[t] != 1 || o->uses[t] != 1 ||
       (mir->regs[d].uniform && !mir->regs[t].uniform))
      return false;
   for (uint32_t k = i; k > 0 && !o->leader[k];) {
      struct sc_minst *c = &mir->code[--k];
      work(mir, 1);
      if (o->dead[k])
         continue;
      if (writes(c, t)) {
         int inv = inverse_comparison(c->op, c->mod);
         if (inv < 0 || reads(c, d))
            return false;
         c->mod = (uint16_t)inv;
         c->dst = x->dst;
         o->defs[t]--;
         o->uses[t]--;
         o->dead[i] = 1;
         return true;
      }
      if (reads(c, d) || writes(c, d) || (is_reg(c->dst) && (reads(x, c->dst.value))))
         return false;
   }
   return false;
}

/* A RET right before the final EXIT (at the top level: its target is the
 * EXIT) changes nothing: every lane is about to finish anyway. */
static bool drop_final_return(struct opt *o, uint32_t i)
{
   struct sc_mir *mir = o->mir;
   const struct sc_minst *in = &mir->code[i];
   if (in->op != ISA_OP_RET || i + 1 >= mir->count || mir->code[i + 1].op != ISA_OP_EXIT ||
       in->label >= mir->label_count || mir->labels[in->label] != i + 1)
      return false;
   if (is_reg(in->a))
      o->uses[in->a.value]--;
   o->dead[i] = 1;
   return true;
}

static bool remove_dead(struct opt *o)
{
   bool changed = false;
   work(o->mir, o->mir->count);
   for (uint32_t i = 0; i < o->mir->count; i++) {
      const struct sc_minst *in = &o->mir->code[i];
      if (!o->dead[i] && pure(in) && is_reg(in->dst) && !o->uses[in->dst.value] &&
          !o->mir->regs[in->dst.value].variable) {
         o->dead[i] = 1;
         for (int k = 0; k < 3; k++) {
            const struct sc_opnd *s = src((struct sc_minst *)in, k);
            if (is_reg(*s))
               o->uses[s->value]--;
         }
         o->defs[in->dst.value]--;
         changed = true;
      }
   }
   return changed;
}

/* Moves the loop's (LOOP at l, ENDLOOP at end) invariant instructions to
 * just before its LOOP: pure, defining a register nothing else defines,
 * from operands the loop does not write. They then run once, under the
 * mask the loop starts with; lanes that leave the loop early computed
 * the same values in it. Pure instructions cannot fault, so computing one
 * that a branch in the loop would have skipped is harmless. At most
 * HOIST_MAX per loop and round, to bound the registers live through it. */
#define HOIST_MAX 16u
static bool hoist_loop(struct opt *o, uint32_t l, uint32_t end)
{
   struct sc_mir *mir = o->mir;
   /* written[] is zero between calls: each call clears what it counted,
    * so a program of many loops costs their sizes, not loops x registers */
   work(mir, 3 * (end - l));
   for (uint32_t k = l + 1; k < end; k++) {
      if (!o->dead[k] && o->anchor[k] == NONE && is_reg(mir->code[k].dst))
         o->written[mir->code[k].dst.value]++;
   }
   uint32_t moved = 0;
   for (uint32_t k = l + 1; k < end && moved < HOIST_MAX; k++) {
      const struct sc_minst *in = &mir->code[k];
      if (o->dead[k] || o->anchor[k] != NONE || !(pure(in) || in->invariant) || !is_reg(in->dst) ||
          o->defs[in->dst.value] != 1 || mir->regs[in->dst.value].variable)
         continue;
      bool invariant = true;
      for (int s = 0; s < 3 && invariant; s++) {
         const struct sc_opnd *x = src((struct sc_minst *)in, s);
         invariant = !is_reg(*x) || !o->written[x->value];
      }
      if (!invariant)
         continue;
      o->anchor[k] = l;
      o->written[in->dst.value]--;
      moved++;
   }
   for (uint32_t k = l + 1; k < end; k++) {
      if (is_reg(mir->code[k].dst))
         o->written[mir->code[k].dst.value] = 0;
   }
   return moved > 0;
}

static bool hoist_invariants(struct opt *o)
{
   uint32_t open[ISA_MAX_STACK], depth = 0;
   bool changed = false;
   memset(o->written, 0, o->mir->reg_count * sizeof(*o->written));
   work(o->mir, o->mir->reg_count);
   for (uint32_t i = 0; i < o->mir->count; i++) {
      if (o->mir->code[i].op == ISA_OP_LOOP && depth < ISA_MAX_STACK)
         open[depth++] = i;
      else if (o->mir->code[i].op == ISA_OP_ENDLOOP && depth)
         changed |= hoist_loop(o, open[--depth], i);
   }
   return changed;
}

/* Every S2R of a fixed special register (not the clock) reads the same
 * value for the whole warp: the first one moves to the program's start
 * (where it dominates everything) and the others' readers read it
 * instead. */
static void share_special_registers(struct opt *o)
{
   struct sc_mir *mir = o->mir;
   uint32_t first[ISA_SR_COUNT];
   for (uint32_t r = 0; r < ISA_SR_COUNT; r++)
      first[r] = NONE;
   for (uint32_t i = 0; i < mir->count; i++) {
      const struct sc_minst *in = &mir->code[i];
      if (in->op != ISA_OP_S2R || !isa_sreg_fixed(in->mod) || !is_reg(in->dst) || in->dst.part ||
          o->defs[in->dst.value] != 1 || mir->regs[in->dst.value].size != 1)
         continue;
      uint32_t f = first[in->mod];
      if (f == NONE) {
         first[in->mod] = i;
         o->anchor[i] = i ? 0 : NONE;
         continue;
      }
      struct sc_opnd with = mir->code[f].dst;
      if (mir->regs[in->dst.value].uniform && !mir->regs[with.value].uniform)
         continue;
      work(mir, mir->count);
      for (uint32_t j = 0; j < mir->count; j++) {
         for (int k = 0; k < 3; k++) {
            struct sc_opnd *x = src(&mir->code[j], k);
            if (is_reg(*x) && x->value == in->dst.value &&
                substitutable(o, &mir->code[j], with.value)) {
               *x = with;
               o->uses[in->dst.value]--;
               o->uses[with.value]++;
            }
         }
      }
   }
}

/* Rebuilds the code: drops the dead instructions and puts the hoisted
 * ones before their anchor, in their original order. A label at a
 * removed instruction moves to the next one kept; a label at an anchor
 * to the first instruction put before it. */
static bool compact(struct opt *o)
{
   struct sc_mir *mir = o->mir;
   uint32_t count = mir->count;
   work(mir, 3 * count + mir->label_count);
   struct sc_minst *code = malloc((count ? count : 1) * sizeof(*code));
   uint32_t *moved = o->defs, *next = o->written, *head = o->uses;   /* reused */
   if (!code)
      return false;
   /* hoisted instructions by anchor, as lists in original order */
   for (uint32_t i = 0; i <= count; i++)
      head[i] = next[i] = NONE;
   for (uint32_t j = count; j-- > 0;) {
      if (o->anchor[j] != NONE && !o->dead[j]) {
         next[j] = head[o->anchor[j]];
         head[o->anchor[j]] = j;
      }
   }
   uint32_t n = 0;
   for (uint32_t i = 0; i < count; i++) {
      moved[i] = n;
      for (uint32_t j = head[i]; j != NONE; j = next[j])
         code[n++] = mir->code[j];
      if (!o->dead[i] && o->anchor[i] == NONE)
         code[n++] = mir->code[i];
   }
   moved[count] = n;
   for (uint32_t l = 0; l < mir->label_count; l++) {
      if (mir->labels[l] <= count)
         mir->labels[l] = moved[mir->labels[l]];
   }
   free(mir->code);
   mir->code = code;
   mir->count = mir->capacity = n;
   return true;
}

static void opt_free(struct opt *o)
{
   free(o->defs), free(o->uses), free(o->leader), free(o->dead), free(o->anchor),
      free(o->written), free(o->version), free(o->at_version), free(o->at_dst), free(o->table),
      free(o->subst), free(o->subst_from), free(o->subst_block), free(o->last_write);
}

/* The pass state for mir: nothing dead, nothing moved. */
static void opt_init(struct opt *o, struct sc_mir *mir, struct sc_error *e)
{
   size_t n = (mir->reg_count > mir->count ? mir->reg_count : mir->count) + 1;
   *o = (struct opt){.mir = mir};
   o->defs = malloc(n * sizeof(*o->defs));
   o->uses = malloc(n * sizeof(*o->uses));
   o->written = malloc(n * sizeof(*o->written));
   o->anchor = malloc(n * sizeof(*o->anchor));
   o->leader = malloc(mir->count + 1);
   o->dead = calloc(mir->count + 1, 1);
   o->table_mask = 15;
   while (o->table_mask < 2 * mir->count)
      o->table_mask = o->table_mask * 2 + 1;
   o->version = malloc(n * sizeof(*o->version));
   o->at_version = malloc(n * sizeof(*o->at_version));
   o->at_dst = malloc(n * sizeof(*o->at_dst));
   o->table = malloc(((size_t)o->table_mask + 1) * sizeof(*o->table));
   o->subst = malloc(n * sizeof(*o->subst));
   o->subst_from = malloc(n * sizeof(*o->subst_from));
   o->subst_block = malloc(n * sizeof(*o->subst_block));
   o->last_write = malloc(n * sizeof(*o->last_write));
   if (!o->defs || !o->uses || !o->written || !o->anchor || !o->leader || !o->dead ||
       !o->version || !o->at_version || !o->at_dst || !o->table || !o->subst || !o->subst_from ||
       !o->subst_block || !o->last_write) {
      opt_free(o);
      sc_fail(e, "out of memory");
   }
   for (uint32_t i = 0; i < n; i++)
      o->anchor[i] = NONE;
}

/* One round: the block-local rewrites until nothing changes, then loop
 * invariants out. Returns whether anything moved out of a loop. */
static bool optimize_round(struct sc_mir *mir, struct sc_error *e)
{
   struct opt o;
   opt_init(&o, mir, e);
   find_blocks(&o);
   count(&o);
   share_special_registers(&o);
   for (int round = 0; round < 4; round++) {
      bool changed = false;
      work(mir, 2 * (uint64_t)mir->count + mir->reg_count + o.table_mask);
      memset(o.version, 0, mir->reg_count * sizeof(*o.version));
      memset(o.subst, 0, mir->reg_count * sizeof(*o.subst));
      memset(o.last_write, 0, mir->reg_count * sizeof(*o.last_write));
      memset(o.table, 0xff, ((size_t)o.table_mask + 1) * sizeof(*o.table));
      for (uint32_t i = 0; i < mir->count; i++) {
         if (o.leader[i])
            o.block = i;
         if (o.dead[i])
            continue;
         apply_substitutions(&o, i);
         if (fold_store_back(&o, i) || fold_negation(&o, i)) {
            /* an earlier instruction writes this one's result now */
            o.version[mir->code[i].dst.value]++;
            o.last_write[mir->code[i].dst.value] = i + 1;
            changed = true;
         }
         changed |= drop_final_return(&o, i);
         if (o.dead[i])
            continue;
         /* each rewrite is tried whatever the one before did */
         changed |= propagate_copy(&o, i);
         changed |= eliminate_common(&o, i);
         changed |= eliminate_common_pair(&o, i);
         changed |= fuse_multiply_add(&o, i);
         if (!o.dead[i] && is_reg(mir->code[i].dst)) {
            o.at_version[i] = ++o.version[mir->code[i].dst.value];
            o.at_dst[i] = mir->code[i].dst.value;
            o.last_write[mir->code[i].dst.value] = i + 1;
         }
      }
      count(&o);   /* replace_reads credited `with` with reads it may not have taken */
      changed |= remove_dead(&o);
      if (!changed)
         break;
   }
   bool hoisted = hoist_invariants(&o);
   bool ok = compact(&o);
   opt_free(&o);
   if (!ok)
      sc_fail(e, "out of memory");
   return hoisted;
}

void sc_mir_optimize(struct sc_mir *mir, struct sc_error *e)
{
   /* each round may expose invariants of the next loop out */
   for (int round = 0; round < 4 && optimize_round(mir, e); round++)
      ;
}

/* ---- uniform loops --------------------------------------------------------------- */

/*
 * A loop that every active lane leaves at the same time needs no mask
 * stack entry: its LOOP, BRK, CONTJOIN and ENDLOOP (four flow instructions
 * an iteration) become uniform jumps. That holds when each way out of the
 * loop is a BRK (or CONT) of a uniform condition at the loop's own level:
 * not under an IF, SWITCH or inner loop, whose entries the jump would
 * leave on the stack, and no RET or inner BRK/CONT leaves it. Then all
 * lanes take every such branch together, exec stays the mask the loop was
 * entered with (what ENDLOOP would restore), and
 *   BRK c  ->  BRA_U c to after the loop      LOOP, CONTJOIN  ->  gone
 *   CONT c ->  BRA_U c to the continue code   ENDLOOP         ->  JMP to the top
 * JMP and BRA_U count a backward jump against the warp's budget as
 * ENDLOOP does, so the watchdog still sees the loop. This runs after
 * register allocation, which extends live intervals over LOOP..ENDLOOP.
 */

static bool uniform_register(const struct sc_mir *mir, struct sc_opnd o)
{
   return is_reg(o) && mir->regs[o.value].uniform;
}

/* Whether BRK or CONT `in` targets a construct inside the loop being
 * looked at; open[] holds the opcodes (IF, LOOP, SWITCH) of the
 * constructs open inside it, innermost last. As the execution units do,
 * BRK skips mod breakable constructs (loops, switches) and CONT goes to
 * the innermost loop. */
static bool targets_inner(const struct sc_minst *in, const uint16_t *open, uint32_t depth)
{
   uint32_t levels = in->mod;
   for (uint32_t k = depth; k-- > 0;) {
      bool cont = in->op == ISA_OP_CONT;
      if (cont ? open[k] == ISA_OP_LOOP : open[k] != ISA_OP_IF) {
         if (cont || levels-- == 0)
            return true;
      }
   }
   return false;
}

/* Whether the loop whose LOOP is at l may be uniform (see above); *end is
 * its ENDLOOP (UINT32_MAX if there is none), *continued whether a CONT
 * goes to its continue point. */
static bool uniform_loop(const struct opt *o, uint32_t l, uint32_t *end, bool *continued)
{
   const struct sc_mir *mir = o->mir;
   uint16_t open[ISA_MAX_STACK];
   uint32_t depth = 0;
   bool ok = true;
   *end = UINT32_MAX;
   *continued = false;
   for (uint32_t i = l + 1; i < mir->count; i++) {
      const struct sc_minst *in = &mir->code[i];
      work(mir, 1);
      if (o->dead[i])
         continue;
      switch (in->op) {
      case ISA_OP_IF: case ISA_OP_LOOP: case ISA_OP_SWITCH:
         if (depth == ISA_MAX_STACK)
            return false;
         open[depth++] = in->op;
         break;
      case ISA_OP_ENDIF: case ISA_OP_ENDSWITCH:
         depth -= depth > 0;
         break;
      case ISA_OP_ENDLOOP:
         if (!depth) {
            *end = i;
            return ok;
         }
         depth--;
         break;
      case ISA_OP_BRK: case ISA_OP_CONT:
         if (!targets_inner(in, open, depth)) {
            ok &= depth == 0 && in->mod == 0 && uniform_register(mir, in->a);
            *continued |= in->op == ISA_OP_CONT;
         }
         break;
      case ISA_OP_RET:
         ok = false;
         break;
      case ISA_OP_JEZ:
         /* a construct inside was left for this loop or further out */
         ok &= depth > 0;
         break;
      default:
         break;
      }
   }
   return false;
}

/* Room for n more labels, taken before the pass state is (a failure
 * unwinds past it). */
static void reserve_labels(struct sc_mir *mir, uint32_t n, struct sc_error *e)
{
   if (mir->label_count + n <= mir->label_capacity)
      return;
   uint32_t cap = mir->label_count + n;
   uint32_t *labels = realloc(mir->labels, cap * sizeof(*labels));
   if (!labels)
      sc_fail(e, "out of memory");
   mir->labels = labels;
   mir->label_capacity = cap;
}

/* Rewrites the uniform loop l..end (see above): its own-level BRK and
 * CONT are the only ones left at depth 0. */
static void lower_uniform_loop(struct opt *o, uint32_t l, uint32_t end)
{
   struct sc_mir *mir = o->mir;
   uint32_t after = UINT32_MAX;
   uint32_t depth = 0;
   o->dead[l] = 1;
   for (uint32_t i = l + 1; i < end; i++) {
      struct sc_minst *in = &mir->code[i];
      if (o->dead[i])
         continue;
      if (in->op == ISA_OP_IF || in->op == ISA_OP_LOOP || in->op == ISA_OP_SWITCH)
         depth++;
      else if (in->op == ISA_OP_ENDIF || in->op == ISA_OP_ENDLOOP || in->op == ISA_OP_ENDSWITCH)
         depth--;
      else if (depth == 0 && in->op == ISA_OP_CONTJOIN)
         o->dead[i] = 1;
      else if (depth == 0 && (in->op == ISA_OP_BRK || in->op == ISA_OP_CONT)) {
         if (in->op == ISA_OP_BRK) {
            if (after == UINT32_MAX) {
               after = mir->label_count++;   /* reserved */
               mir->labels[after] = end + 1;
            }
            in->label = after;   /* CONT keeps its target, the continue code */
         }
         in->op = ISA_OP_BRA_U;
      }
   }
   mir->code[end].op = ISA_OP_JMP;   /* keeps its target, the loop's top */
}

/*
 * A loop on the mask stack that no CONT continues needs no CONTJOIN: it
 * would add no lanes (exec stays as it is), and where its closer jump
 * (exec empty) leads the ENDLOOP's own does (restore the loop's lanes).
 * So what jumps to the CONTJOIN, as the innermost closer (a BRK, RET or
 * JEZ at the loop's own level), jumps to the ENDLOOP, and the CONTJOIN
 * goes: one flow instruction less an iteration.
 */
static void drop_contjoin(struct opt *o, uint32_t l, uint32_t end)
{
   struct sc_mir *mir = o->mir;
   uint32_t depth = 0, join = UINT32_MAX;
   for (uint32_t i = l + 1; i < end && join == UINT32_MAX; i++) {
      uint16_t op = mir->code[i].op;
      if (o->dead[i])
         continue;
      if (op == ISA_OP_IF || op == ISA_OP_LOOP || op == ISA_OP_SWITCH)
         depth++;
      else if (op == ISA_OP_ENDIF || op == ISA_OP_ENDLOOP || op == ISA_OP_ENDSWITCH)
         depth--;
      else if (op == ISA_OP_CONTJOIN && depth == 0)
         join = i;
   }
   if (join == UINT32_MAX)
      return;
   for (uint32_t i = l + 1; i < join; i++) {
      struct sc_minst *in = &mir->code[i];
      if (in->label < mir->label_count && mir->labels[in->label] == join)
         in->label = mir->code[join].label;   /* the ENDLOOP */
   }
   o->dead[join] = 1;
}

void sc_mir_uniform_loops(struct sc_mir *mir, struct sc_error *e)
{
   uint32_t loops = 0;
   work(mir, mir->count);
   for (uint32_t i = 0; i < mir->count; i++)
      loops += mir->code[i].op == ISA_OP_LOOP;
   reserve_labels(mir, loops, e);
   struct opt o;
   opt_init(&o, mir, e);
   bool changed = false;
   /* Outer loops first: the depth counting of a loop's rewrite reads the
    * LOOP and ENDLOOP of the loops inside it. */
   for (uint32_t l = 0; l < mir->count; l++) {
      uint32_t end;
      bool continued;
      if (mir->code[l].op != ISA_OP_LOOP)
         continue;
      if (uniform_loop(&o, l, &end, &continued))
         lower_uniform_loop(&o, l, end);
      else if (end != UINT32_MAX && !continued)
         drop_contjoin(&o, l, end);
      changed = true;
   }
   bool ok = !changed || compact(&o);
   opt_free(&o);
   if (!ok)
      sc_fail(e, "out of memory");
}
