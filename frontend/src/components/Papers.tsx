/** Links to printable papers (PDF, fog-filtered by the API as the side's players see the
 * campaign): the API says which the reader may print now, and names each in words. */
import type { Schemas } from "../api/client";

export function PaperLinks({ papers }: { papers: Schemas["PaperLink"][] }) {
  if (!papers.length) return null;
  return (
    <nav aria-label="Print" className="papers">
      <span className="muted">Print:</span>
      {papers.map((paper) => (
        <a key={paper.url} href={paper.url} target="_blank" rel="noopener">
          {paper.title}
        </a>
      ))}
    </nav>
  );
}
