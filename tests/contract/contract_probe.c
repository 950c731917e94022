/*
 * A translation unit compiled with the include directories of a layer
 * above hw/ (tests/contract/CMakeLists.txt). PROBE_HEADER names the header
 * it tries to include: a contract header must compile, a private header
 * of hw/ must not be found.
 */
#include PROBE_HEADER

int contract_probe(void);
int contract_probe(void)
{
   return 0;
}
