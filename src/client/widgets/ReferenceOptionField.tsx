/**
 * A reference a dialog sends as `{ label, value }` (`wire: 'option'`). Its JSON Schema is an object,
 * which RJSF renders through a field rather than a widget; this field renders the one reference
 * picker in its place, so the field template shows the field's own messages under it
 * ('Country is required!') and not nested label/value inputs.
 */
import { useCallback } from 'react';
import type { FieldProps } from '@rjsf/utils';
import { getUiOptions } from '@rjsf/utils';
import { ReferenceWidget } from './ReferenceWidget.tsx';

export function ReferenceOptionField(props: FieldProps) {
  const {
    schema,
    uiSchema,
    fieldPathId,
    name,
    formData,
    required,
    disabled = false,
    readonly = false,
    autofocus = false,
    onChange,
    onBlur,
    onFocus,
    registry,
    rawErrors,
    hideError,
    title,
  } = props;
  const { title: uiTitle, ...options } = getUiOptions(uiSchema);
  const label = uiTitle ?? title ?? schema.title ?? name;
  const onWidgetChange = useCallback(
    (value: unknown, errorSchema?: FieldProps['errorSchema'], id?: string) => onChange(value, fieldPathId.path, errorSchema, id),
    [onChange, fieldPathId],
  );
  return (
    <ReferenceWidget
      id={fieldPathId.$id}
      name={name}
      label={label}
      schema={schema}
      uiSchema={uiSchema}
      options={options}
      value={formData}
      onChange={onWidgetChange}
      onBlur={onBlur}
      onFocus={onFocus}
      required={required}
      disabled={disabled}
      readonly={readonly}
      autofocus={autofocus}
      registry={registry}
      rawErrors={rawErrors}
      hideError={hideError}
      htmlName={fieldPathId.name}
    />
  );
}
