/** Documents (spec §1, §4.7): upload is not shown; the shapes here are assumptions. */
import { z } from 'zod';
import { documentStatusSchema, entityTypeSchema } from './eventData';

export const documentKindSchema = z.enum(['BankStatement', 'Payslip', 'SA302', 'TaxOverview']);
export type DocumentKind = z.infer<typeof documentKindSchema>;

export const documentUploadSchema = z.object({
  entity_type: entityTypeSchema,
  entity_id: z.string().min(1),
  file_name: z.string().min(1, 'file_name is required').max(255),
  /** The file, Base64-encoded. */
  content_base64: z.string().min(1, 'content_base64 is required'),
  /** Set when the user categorised the file explicitly (§6.5); otherwise recognised. */
  document_type: documentKindSchema.nullable().optional(),
});
export type DocumentUpload = z.infer<typeof documentUploadSchema>;

export const documentSchema = z.object({
  document_id: z.guid(),
  file_name: z.string(),
  document_type: z.string().nullable(),
  status: z.union([z.literal('Processing'), documentStatusSchema]),
  message: z.string().nullable(),
  entity_type: entityTypeSchema,
  entity_id: z.string(),
  extracted_data: z.record(z.string(), z.unknown()).nullable(),
});
export type ProviderDocument = z.infer<typeof documentSchema>;
