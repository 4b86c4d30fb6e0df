/** Sanitised HTML (src/content/sanitizeHtml.ts) in the app's type styles; the caller sanitises, this only shows. */
export function RichText({ sanitizedHtml }: { sanitizedHtml: string }) {
  return <div className="rich-text" dangerouslySetInnerHTML={{ __html: sanitizedHtml }} />;
}
