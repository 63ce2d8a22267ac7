import { load } from 'cheerio';
import { type FactNode, newNode, type PageFacts, valuesOf } from './page-facts.js';
import { nodesFromJson, readJsonLd } from './read-jsonld.js';
import { readMetaTags } from './read-meta-tags.js';
import { readMicrodata } from './read-microdata.js';
import { readStructure } from './read-structure.js';

/**
 * Parses a page once and reads every source of facts from it: JSON-LD,
 * microdata, meta tags, then the visible structure (which mutates the parsed
 * tree, so it runs last).
 */
export function readPageFacts(html: string, url: string): PageFacts {
  const json = parseJsonBody(html);
  if (json !== undefined) {
    // A JSON body (an API response kept as text): its objects are the structured items.
    return {
      url,
      jsonld: nodesFromJson(json),
      microdata: [],
      meta: newNode('meta'),
      structure: newNode('structure'),
      tables: [],
      text: html,
    };
  }
  // htmlparser2 in HTML mode: several times faster than parse5 and as good for reading facts.
  const $ = load(html, { xml: { xmlMode: false, decodeEntities: true } });
  const jsonld = readJsonLd($);
  const microdata = readMicrodata($);
  const meta = readMetaTags($);
  const { structure, tables, text } = readStructure($, url);
  preferHeadingOverSiteTitle(meta, structure);
  return { url, jsonld, microdata, meta, structure, tables, text };
}

/**
 * `og:title` is often the heading plus the site's name ("Data Analyst – Lumen
 * Health"): when it is the page's `h1` followed by a separator and more, the
 * `h1` alone is the title.
 */
function preferHeadingOverSiteTitle(meta: FactNode, structure: FactNode): void {
  const heading = valuesOf(structure, 'headline')[0];
  if (typeof heading !== 'string' || heading.length < 3) return;
  for (const entry of meta.entries) {
    if (entry.key !== 'title' || typeof entry.value !== 'string' || entry.value === heading) continue;
    const rest = entry.value.startsWith(heading) ? entry.value.slice(heading.length) : '';
    if (/^\s*[|–—·:-]\s*\S/.test(rest)) entry.value = heading;
  }
}

function parseJsonBody(body: string): unknown {
  const start = body.trimStart()[0];
  if (start !== '{' && start !== '[') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
