/* Which sanitizer this translation unit is built with: gcc defines
 * __SANITIZE_ADDRESS__ and __SANITIZE_THREAD__, clang (14) only answers
 * __has_feature. SG_ASAN and SG_TSAN are 1 or 0 either way. */
#ifndef SG_SANITIZE_H
#define SG_SANITIZE_H

#if defined(__has_feature)
#define SG_HAS_FEATURE_(x) __has_feature(x)
#else
#define SG_HAS_FEATURE_(x) 0
#endif

#if defined(__SANITIZE_ADDRESS__) || SG_HAS_FEATURE_(address_sanitizer)
#define SG_ASAN 1
#else
#define SG_ASAN 0
#endif

#if defined(__SANITIZE_THREAD__) || SG_HAS_FEATURE_(thread_sanitizer)
#define SG_TSAN 1
#else
#define SG_TSAN 0
#endif

#endif
