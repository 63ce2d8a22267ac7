export { type ConvertInput, convertFetched } from './convert-fetched.js';
export { convertPage } from './convert-page.js';
export { convertText } from './convert-text.js';
export { ConverterPool } from './converter-pool.js';
export {
  extractMainContent,
  fallbackContent,
  type MainContent,
  type MainContentOptions,
} from './main-content.js';
export { elementToMarkdown, htmlToMarkdown } from './markdown.js';
export {
  collapseWhitespace,
  documentBaseUrl,
  type PageFacts,
  resolveHttpUrl,
  scanPage,
} from './page-metadata.js';
export { type HtmlDocument, parseHtmlDocument } from './parse-document.js';
export { elementToText } from './plain-text.js';
export type { ConvertedPage } from './types.js';
