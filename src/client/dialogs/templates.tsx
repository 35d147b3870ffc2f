/**
 * RJSF templates of our own, each mending one thing MUI's theme does for screen readers:
 * - a field's description became an `<h6>` (a `subtitle2` Typography): a hint such as "Image size
 *   250x150" was a heading, skipping levels after the dialog's title. Here it is a paragraph.
 * - a field's error and description ids (`aria-describedby`) landed on the TextField's outer `<div>`,
 *   not on the `<input>`, so the message under a field was not read with it. Here the input has them.
 */
import { Typography } from '@mui/material';
import { RichDescription } from '@rjsf/core';
import { Templates as MuiTemplates } from '@rjsf/mui';
import { ariaDescribedByIds, type BaseInputTemplateProps, type DescriptionFieldProps } from '@rjsf/utils';

const MuiBaseInput = MuiTemplates.BaseInputTemplate!;

export function DescriptionFieldTemplate({ id, description, registry, uiSchema }: DescriptionFieldProps) {
  if (!description) return null;
  return (
    <Typography id={id} component="p" variant="subtitle2" sx={{ mt: 0.625 }}>
      <RichDescription description={description} registry={registry} uiSchema={uiSchema} />
    </Typography>
  );
}

export function BaseInputTemplate(props: BaseInputTemplateProps) {
  const { slotProps, id, schema } = props;
  const describedBy = ariaDescribedByIds(id, !!schema.examples);
  return <MuiBaseInput {...props} slotProps={{ ...slotProps, htmlInput: { ...slotProps?.htmlInput, 'aria-describedby': describedBy } }} />;
}

export const templates = { DescriptionFieldTemplate, BaseInputTemplate };
