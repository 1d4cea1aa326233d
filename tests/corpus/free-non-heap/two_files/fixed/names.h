#ifndef NAMES_H
#define NAMES_H

char *name_of(int uid);       /* a fresh copy, or NULL when there is none */
void name_free(char *name);

#endif
