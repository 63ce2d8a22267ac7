export { DefaultExtractionEngine } from './default-engine.js';
export { ModelExtractionEngine } from './model-engine.js';
export { pageText } from './page-text.js';
export { checkAgainstSchema, validateExtractionSchema } from './schema-validator.js';
export type { ExtractionEngine, ExtractionInput, ExtractionOutcome } from './types.js';
