/**
 * The walkthrough's "Set the API key" step's id as the workbench knows it
 * (`<extension id>#<walkthrough id>#<step id>`), which its commands that mark a
 * step done or not done take.
 */
export function keyStepId(extensionId: string): string {
  return `${extensionId}#gettingStarted#setApiKey`;
}
