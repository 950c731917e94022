/* Bounded string building for reports and disassembly. */
#ifndef SG_STR_H
#define SG_STR_H

#include <stddef.h>

/* printf-style append at buf + used, never past size (the text is cut,
 * always terminated); returns the new length, at most size - 1. Chains:
 * used = sg_appendf(buf, size, used, ...). */
size_t sg_appendf(char *buf, size_t size, size_t used, const char *fmt, ...)
   __attribute__((format(printf, 4, 5)));

#endif
