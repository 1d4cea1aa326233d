#ifndef COMPILER_H
#define COMPILER_H
#if defined(__GNUC__)
#define KV_WUR __attribute__((warn_unused_result))
#else
#define KV_WUR
#endif
#define KV_MUST_CHECK KV_WUR
#endif
