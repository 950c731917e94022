#include "sg_str.h"

#include <stdarg.h>
#include <stdio.h>

size_t sg_appendf(char *buf, size_t size, size_t used, const char *fmt, ...)
{
   if (used + 1 >= size)
      return used;
   va_list ap;
   va_start(ap, fmt);
   int n = vsnprintf(buf + used, size - used, fmt, ap);
   va_end(ap);
   return n < 0 ? used : (used + (size_t)n < size ? used + (size_t)n : size - 1);
}
