export { DefaultExtractionEngine } from './default-engine.js';
export { ExtractionThreads, inlineFiller, type PageFiller } from './extraction-threads.js';
export type { FillInput, FillOutcome } from './fill-page.js';
export { ModelExtractionEngine } from './model-engine.js';
export { compileSchema, type SchemaProblem } from './schema-compiler.js';
export {
  InlineSchemaValidator,
  type OutputCheck,
  SCHEMA_CACHE_LIMITS,
  type SchemaValidator,
} from './schema-validator.js';
export { ThreadedSchemaValidator } from './schema-validator-thread.js';
export type { ExtractionEngine, ExtractionInput, ExtractionOutcome } from './types.js';
