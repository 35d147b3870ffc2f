/** The manifest DSL. Manifests import from here and nowhere else in `src/`. */
export * from './types.ts';
export { field } from './field.ts';
export { dialog } from './dialog.ts';
export { read, operation } from './read.ts';
export { rules } from './rules.ts';
export { messages } from './messages.ts';
export { defineResource } from './define.ts';
export { createRegistry, type Registry } from './registry.ts';
export { API_BASE, urlOf, parseCall, fillPath, routerPath, type ParsedCall } from './call.ts';
export { bodySchema, formJsonSchema, pickedFields, ruleOf, labelOf, issuesByField } from './schema.ts';
export { isSortable, isFilterable, isRangeFilterable, listFields, listOptions, RANGE_ENDS, TIMESTAMP_FIELDS, timestampFields, type ListOptions } from './list.ts';
export * from './uploads.ts';
export { fromWire } from './schema.ts';
export { allows, dialogAccess } from './access.ts';
