/**
 * An RJSF validator backed by the dialog's zod body schema, so the form shows exactly the messages
 * the server answers (spec §5: 'Category name is required!'). Replaces @rjsf/validator-ajv8, whose
 * compiled validators need `new Function` and would break under the coming CSP.
 */
import {
  createErrorHandler,
  getDefaultFormState,
  toErrorSchema,
  unwrapErrorHandler,
  validationDataMerge,
  type CustomValidator,
  type ErrorTransformer,
  type RJSFSchema,
  type RJSFValidationError,
  type UiSchema,
  type ValidationData,
  type ValidatorType,
} from '@rjsf/utils';
import type { z } from 'zod';
import { issuesByField } from '../../manifest/index.ts';
import { structuralErrors } from './json-check.ts';

type Data = Record<string, unknown>;

/** zod's issues as RJSF's error list; a field's messages sit under it, whole-form ones at the root. */
export function zodErrors(rule: z.ZodType, formData: unknown, schema?: RJSFSchema): RJSFValidationError[] {
  const result = rule.safeParse(formData ?? {});
  if (result.success) return [];
  const props = (schema?.properties ?? {}) as Record<string, { title?: string } | boolean>;
  return Object.entries(issuesByField(result.error)).flatMap(([field, list]) => {
    const root = field === '_';
    const prop = props[field];
    const title = (typeof prop === 'object' && prop.title) || field;
    return list.map((message) => ({
      name: 'zod',
      property: root ? '' : `.${field}`,
      message,
      params: {},
      stack: root ? message : `${title}: ${message}`,
      title: root ? undefined : title,
      schemaPath: root ? '#' : `#/properties/${field}`,
    }));
  });
}

export function createZodValidator(rule: z.ZodType): ValidatorType<Data> {
  const validator: ValidatorType<Data> = {
    validateFormData(
      formData: Data | undefined,
      schema: RJSFSchema,
      customValidate?: CustomValidator<Data>,
      transformErrors?: ErrorTransformer<Data>,
      uiSchema?: UiSchema<Data>,
    ): ValidationData<Data> {
      let errors = zodErrors(rule, formData, schema);
      if (typeof transformErrors === 'function') errors = transformErrors(errors, uiSchema);
      const errorSchema = toErrorSchema<Data>(errors);
      if (typeof customValidate !== 'function') return { errors, errorSchema };
      // As RJSF's own validators do: custom rules see every field, absent ones as undefined.
      const full = getDefaultFormState<Data>(validator, schema, formData, schema, true) as Data;
      const handler = customValidate(full, createErrorHandler<Data>(full), uiSchema, errorSchema);
      return validationDataMerge<Data>({ errors, errorSchema }, unwrapErrorHandler<Data>(handler));
    },
    isValid(schema: RJSFSchema, formData: Data | undefined, rootSchema: RJSFSchema): boolean {
      try {
        return structuralErrors(schema, formData, rootSchema).length === 0;
      } catch {
        return false; // an unusable schema (e.g. a remote $ref) matches nothing, as ajv's isValid says
      }
    },
    rawValidation<Result = unknown>(schema: RJSFSchema, formData?: Data) {
      try {
        return { errors: structuralErrors(schema, formData) as Result[] };
      } catch (e) {
        return { errors: [] as Result[], validationError: e as Error };
      }
    },
  };
  return validator;
}
