/**
 * A rich embed as a person expects it: colour bar, author, title (a link when its URL is
 * http or https), description in Markdown, fields inline or not, image, thumbnail,
 * footer and timestamp. Every URL goes through safeUrl; text is only ever text.
 *
 * Pictures come from a host the bot chose, and loading one tells that host who looks
 * and when (docs/security.md, finding 10). So the browser loads none until the person
 * asks: a "Load image from <host>" button per host in the embed, or "Always load images
 * from <host>" (remembered for this person, images.ts). Pictures the server's image
 * proxy serves (the operator turned it on) come from Parley itself and show at once.
 */
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { Markdown } from "../markdown";
import type { Embed } from "../types";
import { cssColor, safeUrl } from "../urls";
import { trustHost, trustedHosts } from "../images";

/** Where the server's image proxy answers: a path on this page's own origin, nothing else. */
const PROXY_PATH = /^\/api\/media\/v1\/external\/[\w-]+\?url=/;

interface Picture {
  /** What the <img> loads: the proxy's path, or the bot's address once the person allows it. */
  src: string;
  /** The bot's host; null when the picture comes through the proxy. */
  host: string | null;
}

function picture(url: unknown, proxy: unknown): Picture | null {
  const direct = safeUrl(url);
  if (!direct) return null;
  if (typeof proxy === "string" && PROXY_PATH.test(proxy)) return { src: proxy, host: null };
  return { src: direct, host: new URL(direct).host };
}

function Img({ pic, shown, alt, class: cls }: { pic: Picture | null; shown: (p: Picture) => boolean; alt: string; class: string }) {
  if (!pic || !shown(pic)) return null;
  return <img class={cls} src={pic.src} alt={alt} loading="lazy" referrerpolicy="no-referrer" />;
}

function MaybeLink({ href, children }: { href: unknown; children: ComponentChildren }) {
  const url = safeUrl(href);
  return url ? (
    <a href={url} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  ) : (
    <>{children}</>
  );
}

/** The buttons that load the pictures still held back, one pair per host. */
function AskToLoad({ waiting, onLoad }: { waiting: Map<string, number>; onLoad: (host: string) => void }) {
  if (!waiting.size) return null;
  return (
    <div class="embed-ask">
      {[...waiting].map(([host, n]) => (
        <p key={host}>
          <button type="button" onClick={() => onLoad(host)}>
            {n === 1 ? `Load image from ${host}` : `Load ${n} images from ${host}`}
          </button>{" "}
          <button type="button" class="link" onClick={() => trustHost(host)}>
            Always load images from {host}
          </button>
        </p>
      ))}
    </div>
  );
}

export function EmbedView({ e }: { e: Embed }) {
  const [loaded, setLoaded] = useState<ReadonlySet<string>>(new Set());
  const trusted = trustedHosts.value;
  const shown = (p: Picture) => p.host === null || trusted.has(p.host) || loaded.has(p.host);
  const pics = {
    author: picture(e.author?.icon_url, e.author?.proxy_icon_url),
    image: picture(e.image?.url, e.image?.proxy_url),
    footer: picture(e.footer?.icon_url, e.footer?.proxy_icon_url),
    thumbnail: picture(e.thumbnail?.url, e.thumbnail?.proxy_url),
  };
  const color = cssColor(e.color);
  const time = e.timestamp ? new Date(e.timestamp) : null;
  const hasFooter = !!e.footer?.text || (time !== null && !Number.isNaN(time.getTime()));
  // Only pictures the embed would show count: an author icon without a name shows nowhere.
  const waiting = new Map<string, number>();
  for (const p of [e.author?.name ? pics.author : null, pics.image, hasFooter ? pics.footer : null, pics.thumbnail])
    if (p && p.host !== null && !shown(p)) waiting.set(p.host, (waiting.get(p.host) ?? 0) + 1);
  const fields = Array.isArray(e.fields) ? e.fields : [];
  return (
    <div class="embed" style={color ? { borderLeftColor: color } : undefined}>
      <div class="embed-body">
        {e.author?.name && (
          <div class="embed-author">
            <Img pic={pics.author} shown={shown} alt="" class="embed-icon" />
            <MaybeLink href={e.author.url}>{String(e.author.name)}</MaybeLink>
          </div>
        )}
        {e.title && (
          <div class="embed-title">
            <MaybeLink href={e.url}>{String(e.title)}</MaybeLink>
          </div>
        )}
        {e.description && (
          <div class="embed-description">
            <Markdown source={String(e.description)} />
          </div>
        )}
        {fields.length > 0 && (
          <dl class="embed-fields">
            {fields.map((f, i) => (
              <div key={i} class={f.inline ? "embed-field inline" : "embed-field"}>
                <dt>
                  <Markdown source={String(f.name ?? "")} />
                </dt>
                <dd>
                  <Markdown source={String(f.value ?? "")} />
                </dd>
              </div>
            ))}
          </dl>
        )}
        <Img pic={pics.image} shown={shown} alt={e.title ? `Image: ${e.title}` : "Embedded image"} class="embed-image" />
        <AskToLoad waiting={waiting} onLoad={(host) => setLoaded(new Set([...loaded, host]))} />
        {hasFooter && (
          <div class="embed-footer">
            <Img pic={pics.footer} shown={shown} alt="" class="embed-icon" />
            {e.footer?.text && <span>{String(e.footer.text)}</span>}
            {e.footer?.text && time && <span aria-hidden="true"> • </span>}
            {time && !Number.isNaN(time.getTime()) && <time dateTime={time.toISOString()}>{time.toLocaleString()}</time>}
          </div>
        )}
      </div>
      <Img pic={pics.thumbnail} shown={shown} alt="Thumbnail" class="embed-thumbnail" />
    </div>
  );
}
