/**
 * A bar chart of one figure per day in plain SVG (no chart library: thirty bars need
 * none). The numbers themselves are in the overview's table beside it, for screen
 * readers and for anyone who wants them exact.
 */
export function DayChart({ title, values }: { title: string; values: { day: string; n: number }[] }) {
  const max = Math.max(1, ...values.map((v) => v.n));
  const w = 300;
  const h = 80;
  const bar = w / Math.max(1, values.length);
  const total = values.reduce((a, v) => a + v.n, 0);
  return (
    <figure class="day-chart">
      <svg
        role="img"
        aria-label={`${title}: ${total} over ${values.length} days, at most ${max} a day`}
        viewBox={`0 0 ${w} ${h}`}
        width={w}
        height={h}
      >
        {values.map((v, i) => {
          const bh = Math.round((v.n / max) * (h - 2));
          return (
            <rect key={v.day} x={i * bar + 1} y={h - bh} width={Math.max(1, bar - 2)} height={bh} fill="currentColor">
              <title>{`${v.day}: ${v.n}`}</title>
            </rect>
          );
        })}
      </svg>
      <figcaption>{title}</figcaption>
    </figure>
  );
}
