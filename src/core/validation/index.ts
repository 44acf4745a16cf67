export { messageFor } from './messages.js'
export {
  createSchemaRegistry,
  resolveSchemaId,
  SCHEMA_BASE,
  type SchemaRegistry,
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
