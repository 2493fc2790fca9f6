/** The instance at a glance: its version and uptime, counts, the database's and the files' size, and the last 30 days as charts and a table. */
import { useEffect, useState } from "preact/hooks";
import { api } from "../../api";
import type { AdminOverview } from "../../../contract";
import { ErrorLine, errorText } from "../ui";
import { DayChart } from "./Chart";

/** "3 d 4 h", "2 h 5 min", "12 min": how long the server has run, to the unit that matters. */
function duration(s: number): string {
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d) return `${d} d ${h} h`;
  if (h) return `${h} h ${m} min`;
  return `${m} min`;
}

const bytes = (n: number) => (n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`);

export function Overview() {
  const [o, setO] = useState<AdminOverview | null>(null);
  const [error, setError] = useState<string>();
  useEffect(() => void api<AdminOverview>("GET", "/admin/overview").then(setO, (e) => setError(errorText(e))), []);
  if (!o) return <ErrorLine error={error} />;
  const c = o.counts;
  const rows: [string, string][] = [
    ...(o.version ? ([["Version", o.version]] as [string, string][]) : []),
    ...(o.uptime_seconds !== null ? ([["Uptime", duration(o.uptime_seconds)]] as [string, string][]) : []),
    ["People", `${c.people} (${c.disabled_people} disabled, ${c.administrators} administrators)`],
    ["Applications", String(c.applications)],
    ["Servers", String(c.servers)],
    ["Channels", String(c.channels)],
    ["Messages", String(c.messages)],
    ["Database", bytes(o.database_bytes)],
    ["Files", bytes(o.media_bytes)],
  ];
  return (
    <section class="card" aria-labelledby="overview-title">
      <h2 id="overview-title">Overview</h2>
      <dl class="figures">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <div class="charts">
        <DayChart title="Messages per day" values={o.days.map((d) => ({ day: d.day, n: d.messages }))} />
        <DayChart title="Active people per day" values={o.days.map((d) => ({ day: d.day, n: d.active_people }))} />
        <DayChart title="Requests per day" values={o.days.map((d) => ({ day: d.day, n: d.requests }))} />
      </div>
      <table aria-label="The last 30 days">
        <thead>
          <tr>
            <th>Day</th>
            <th>Messages</th>
            <th>Active people</th>
            <th>Requests</th>
          </tr>
        </thead>
        <tbody>
          {o.days.map((d) => (
            <tr key={d.day}>
              <td>{d.day}</td>
              <td>{d.messages}</td>
              <td>{d.active_people}</td>
              <td>{d.requests}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
