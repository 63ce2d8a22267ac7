/**
 * The settings section of this extension (`webdata.*`). Apart from the
 * connection so that what activation loads (the CodeLens) does not load it.
 */
export const SETTINGS = 'webdata';
