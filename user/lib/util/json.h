/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LIBFTSW_JSON_H
#define LIBFTSW_JSON_H

#include <stdio.h>

/* Write s as a JSON string literal (quotes included, escaped). */
void ftsw_json_str(FILE *f, const char *s);

#endif
