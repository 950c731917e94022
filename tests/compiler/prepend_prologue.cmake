# Writes OUT from SRC. A file starting with "; map" is a map shader's body:
# its text before the "; @function" line replaces the @@GLOBALS@@ line of
# PROLOGUE (shaders/prologue.spvasm.in), the rest follows the prologue,
# which ends inside the entry block. Other files are copied as they are.
file(READ ${SRC} body)
string(FIND "${body}" "; map" at)
if(at EQUAL 0)
  file(READ ${PROLOGUE} prologue)
  string(FIND "${body}" "; @function" split)
  if(split EQUAL -1)
    message(FATAL_ERROR "${SRC}: a map shader needs a '; @function' line")
  endif()
  string(SUBSTRING "${body}" 0 ${split} globals)
  string(SUBSTRING "${body}" ${split} -1 code)
  string(REPLACE "@@GLOBALS@@" "${globals}" prologue "${prologue}")
  file(WRITE ${OUT} "${prologue}${code}")
else()
  file(WRITE ${OUT} "${body}")
endif()
