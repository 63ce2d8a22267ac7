/**
 * Common English function words. A query such as "how do I stop a crawl"
 * keeps only its content words ("stop crawl"): "how", "do" and "I" are on
 * nearly every page and would only add noise to the ranking. Words that
 * change a question's meaning ("not", "no", "without") are not on the list.
 * Words inside quoted phrases are always kept, and so is a query made only
 * of stop words.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are as at be because been before being below
   between both but by can could did do does doing down during each few for from further had has have
   having he her here hers herself him himself his how i if in into is it its itself just me more most
   my myself of off on once only or other our ours ourselves out over own same she should so
   some such than that the their theirs them themselves then there these they this those through to too
   under until up very was we were what when where which while who whom why will with would you your
   yours yourself yourselves get got use using can't don't doesn't i'm it's let lets want need way`
    .split(/\s+/)
    .filter((word) => word !== ''),
);
