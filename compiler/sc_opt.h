/* The C interface of the C++ optimizer shim (sc_opt.cpp). */
#ifndef SC_OPT_H
#define SC_OPT_H

#include <stddef.h>
#include <stdint.h>

#include "sc_compiler.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Specialization and the SPIRV-Tools optimizer. Returns a malloc'd module,
 * or NULL with the reason in err. Never throws. */
uint32_t *sc_optimize(const uint32_t *words, size_t count, const struct sc_spec_value *spec,
                      uint32_t spec_count, bool optimize, size_t *out_count, char *err,
                      size_t err_size);

#ifdef __cplusplus
}
#endif

#endif
