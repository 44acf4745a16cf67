export { messageFor } from './messages.js'
export {
  createSchemaRegistry,
  listSchemaFiles,
  resolveSchemaId,
  SCHEMA_BASE,
  SCHEMAS_DIR,
  type SchemaRegistry,
  schemaIdForFile,
  schemaRegistry,
} from './schema-registry.js'
export {
  type FieldError,
  formatFieldError,
  formatPath,
  type PathStyle,
  type ValidateOptions,
  type ValidationResult,
  validate,
} from './validate.js'
export { actionFileName, findKind, PAYLOAD_KINDS, type PayloadKind } from './kinds.js'
