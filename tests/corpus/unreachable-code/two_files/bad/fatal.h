#ifndef FATAL_H
#define FATAL_H
void fatal(const char *what);
#endif
