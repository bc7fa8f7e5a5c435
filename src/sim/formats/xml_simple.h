/* xml_simple.h: a reader of the small XML subset MQSim's configuration files use (xml_simple.c):
 * nested elements whose leaves hold text, an optional <?xml ...?> declaration and comments.
 * Attributes, entity references, CDATA sections, processing instructions other than the
 * declaration and DOCTYPE are refused; every element keeps the line it starts on. */
#ifndef IOLAB_SIM_FORMATS_XML_SIMPLE_H
#define IOLAB_SIM_FORMATS_XML_SIMPLE_H

#include "iolab/error.h"

struct xml_node {
	const char *name;
	const char *text;   /* a leaf's text, trimmed ("" when empty); NULL: it has children */
	unsigned line;
	int parent;         /* index of the parent, -1: the root */
	int first_child;    /* -1: none */
	int next;           /* the next sibling, -1: none */
};

struct xml_doc {
	char *buf;          /* the text, cut into the names and texts the nodes point at */
	struct xml_node *node;
	unsigned n, cap;    /* node[0] is the root element */
};

/* Reads text (name used in messages: "name:line: ..."). Returns 0, -EINVAL or -ENOMEM (doc
 * then holds nothing to free). */
int xml_simple_parse(const char *name, const char *text, struct xml_doc *doc, struct iolab_err *err);
void xml_simple_free(struct xml_doc *doc);

#endif
