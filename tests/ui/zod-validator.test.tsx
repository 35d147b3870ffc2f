import type { RJSFSchema } from '@rjsf/utils';
import { registry } from '../../resources/index.ts';
import { bodySchema, fixedIn, formJsonSchema, pickedFields } from '../../src/manifest/index.ts';
import { createZodValidator } from '../../src/client/dialogs/zod-validator.ts';
import { formRuleOf } from '../../src/client/dialogs/form-schema.ts';
import { structuralErrors } from '../../src/client/dialogs/json-check.ts';

function validatorOf(type: string) {
  const { resource, dialog } = registry.dialog(type)!;
  return { validator: createZodValidator(bodySchema(resource, dialog)), schema: formJsonSchema(resource, dialog) as RJSFSchema };
}

describe('zod validator (createCategory)', () => {
  const { validator, schema } = validatorOf('createCategory');

  it('puts the spec message for an empty name under the field', () => {
    const { errorSchema, errors } = validator.validateFormData({ name: '' }, schema);
    expect(errorSchema.name?.__errors).toEqual(['Category name is required!']);
    expect(errors).toEqual([expect.objectContaining({ property: '.name', message: 'Category name is required!' })]);
  });

  it('says the same when the name is only spaces or absent', () => {
    expect(validator.validateFormData({ name: '   ' }, schema).errorSchema.name?.__errors).toEqual(['Category name is required!']);
    expect(validator.validateFormData({}, schema).errorSchema.name?.__errors).toEqual(['Category name is required!']);
  });

  it.each(['general', 'GENERAL', ' General '])("refuses the reserved name %j", (name) => {
    const { errorSchema } = validator.validateFormData({ name }, schema);
    expect(errorSchema.name?.__errors).toEqual(["Category cannot be 'general'"]);
  });

  it('accepts a real name', () => {
    const { errors, errorSchema } = validator.validateFormData({ name: 'Shoes' }, schema);
    expect(errors).toEqual([]);
    expect(errorSchema).toEqual({});
  });

  it('refuses a field the dialog does not pick (no mass assignment)', () => {
    const { errorSchema } = validator.validateFormData({ name: 'Shoes', role: 'admin' }, schema);
    expect(errorSchema.role?.__errors).toEqual(["Field 'role' is not allowed."]);
  });

  it('merges custom validation and error transforms as RJSF expects', () => {
    const { errorSchema } = validator.validateFormData(
      { name: 'general' },
      schema,
      (data, errors) => {
        errors.name?.addError(`custom for ${String(data?.name)}`);
        return errors;
      },
      (errors) => errors.map((e) => ({ ...e, message: `${e.message}!` })),
    );
    expect(errorSchema.name?.__errors).toEqual(["Category cannot be 'general'!", 'custom for general']);
  });

  it('uses the other levels’ own messages', () => {
    const child = validatorOf('createChildCategory');
    const { errorSchema } = child.validator.validateFormData({ name: '', image: 'ab', category: 'x' }, child.schema);
    expect(errorSchema.name?.__errors).toEqual(['Child Category name is required!']);
    expect(errorSchema.image?.__errors).toEqual(['Image is required!']);
    expect(errorSchema.category?.__errors).toEqual(['Parent category is required!']);
  });
});

describe('structural check (isValid, for oneOf/anyOf resolution)', () => {
  const { validator } = validatorOf('createCategory');
  const root: RJSFSchema = {
    $defs: { kind: { type: 'string', enum: ['a', 'b'] } },
    oneOf: [
      { type: 'object', properties: { kind: { const: 'text' }, text: { type: 'string' } }, required: ['kind'] },
      { type: 'object', properties: { kind: { const: 'count' }, count: { type: 'integer' } }, required: ['kind', 'count'] },
    ],
  };

  it('checks type, const and required', () => {
    expect(validator.isValid(root.oneOf![0] as RJSFSchema, { kind: 'text', text: 'x' }, root)).toBe(true);
    expect(validator.isValid(root.oneOf![0] as RJSFSchema, { kind: 'count' }, root)).toBe(false);
    expect(validator.isValid(root.oneOf![1] as RJSFSchema, { kind: 'count' }, root)).toBe(false);
    expect(validator.isValid(root.oneOf![1] as RJSFSchema, { kind: 'count', count: 1.5 }, root)).toBe(false);
    expect(validator.isValid(root.oneOf![1] as RJSFSchema, { kind: 'count', count: 2 }, root)).toBe(true);
    expect(validator.isValid(root, { kind: 'text' }, root)).toBe(true);
    expect(validator.isValid(root, { kind: 'other' }, root)).toBe(false);
  });

  it('checks enum through a local $ref, and refuses a remote one', () => {
    expect(validator.isValid({ $ref: '#/$defs/kind' }, 'a' as never, root)).toBe(true);
    expect(validator.isValid({ $ref: '#/$defs/kind' }, 'c' as never, root)).toBe(false);
    expect(validator.isValid({ $ref: 'https://example.com/s.json' }, 'a' as never, root)).toBe(false);
  });

  it('reports where a value breaks the schema', () => {
    expect(structuralErrors({ type: 'object', properties: { n: { type: 'number', minimum: 1 } }, required: ['m'] }, { n: 0 })).toEqual([
      expect.objectContaining({ property: '.m', name: 'required' }),
      expect.objectContaining({ property: '.n', name: 'minimum' }),
    ]);
    expect(validator.rawValidation({ type: 'string' }, 3 as never).errors).toHaveLength(1);
  });
});

/**
 * Issue 51: a field nobody can type into (read-only, or computed by the server) never shows a rule
 * message: an empty agent form said 'Agent ID must be at least 2 characters.' under its read-only Agent ID.
 */
describe('a read-only or computed field shows no rule message', () => {
  const formValidatorOf = (type: string) => {
    const { resource, dialog } = registry.dialog(type)!;
    return { validator: createZodValidator(formRuleOf(resource, dialog, bodySchema(resource, dialog))), schema: formJsonSchema(resource, dialog) as RJSFSchema };
  };

  it('an empty agent form: messages under the fields one fills, none under Agent ID', () => {
    const { validator, schema } = formValidatorOf('createAgent');
    const { errorSchema } = validator.validateFormData({ name: '', agentId: '' }, schema);
    expect(errorSchema.name?.__errors?.length).toBeGreaterThan(0);
    expect(errorSchema.agentId).toBeUndefined();
  });

  const fixed = registry.resources.flatMap((resource) =>
    Object.entries(resource.dialogs).flatMap(([type, dialog]) =>
      pickedFields(resource, dialog)
        .filter((f) => fixedIn(f, dialog) || f.computed)
        .map((f) => [`${type}.${f.name}`, type, f.name] as const),
    ),
  );

  it('some form picks such a field (the check below is not empty)', () => expect(fixed.length).toBeGreaterThan(0));

  it.each(fixed)('%s', (_name, type, field) => {
    const { validator, schema } = formValidatorOf(type);
    expect(validator.validateFormData({ [field]: '' }, schema).errorSchema[field]).toBeUndefined();
  });
});
