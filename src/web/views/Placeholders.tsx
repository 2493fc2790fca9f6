/**
 * Grey shapes where an answer will be, while it loads (issue 28): the region around them
 * says `aria-busy`, screen readers hear what is loading, and no "nothing here" text shows
 * before the answer says so.
 */
export function Placeholders({ what, rows = 3 }: { what: string; rows?: number }) {
  return (
    <div class="placeholders" role="status">
      <span class="sr-only">Loading {what}…</span>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} class="placeholder" aria-hidden="true">
          <span class="ph-avatar" />
          <span class="ph-lines">
            <span class="ph-line short" />
            <span class="ph-line" />
          </span>
        </div>
      ))}
    </div>
  );
}
