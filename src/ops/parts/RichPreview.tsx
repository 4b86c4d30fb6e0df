import { RichText } from '../../components/RichText';
import { sanitizeHtml } from '../../content/sanitizeHtml';

interface RichPreviewProps {
  /** The language the text is in (for screen readers and the type). */
  lang: 'zh' | 'en';
  label: string;
  title: string;
  /** HTML: the server's sanitised body, or what the operator typed (sanitised here by the same rule). */
  html: string;
}

/**
 * A notice or about page as a member sees it: the member app's document card (src/routes/shared/DocumentView.tsx),
 * its body through the member app's sanitiser (src/content/sanitizeHtml.ts, the rule of api-schema/richText.ts).
 */
export function RichPreview({ lang, label, title, html }: RichPreviewProps) {
  return (
    <article className="card document" lang={lang} aria-label={label}>
      <h4 className="document-title">{title}</h4>
      <RichText sanitizedHtml={sanitizeHtml(html)} />
    </article>
  );
}
