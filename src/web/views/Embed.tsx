/**
 * A rich embed as a person expects it: colour bar, author, title (a link when its URL is
 * http or https), description in Markdown, fields inline or not, image, thumbnail,
 * footer and timestamp. Every URL goes through safeUrl; text is only ever text.
 */
import type { ComponentChildren } from "preact";
import { Markdown } from "../markdown";
import type { Embed } from "../types";
import { cssColor, safeUrl } from "../urls";

function Img({ src, alt, class: cls }: { src: unknown; alt: string; class: string }) {
  const url = safeUrl(src);
  return url ? <img class={cls} src={url} alt={alt} loading="lazy" referrerpolicy="no-referrer" /> : null;
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

export function EmbedView({ e }: { e: Embed }) {
  const color = cssColor(e.color);
  const time = e.timestamp ? new Date(e.timestamp) : null;
  const fields = Array.isArray(e.fields) ? e.fields : [];
  return (
    <div class="embed" style={color ? { borderLeftColor: color } : undefined}>
      <div class="embed-body">
        {e.author?.name && (
          <div class="embed-author">
            <Img src={e.author.icon_url} alt="" class="embed-icon" />
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
        <Img src={e.image?.url} alt={e.title ? `Image: ${e.title}` : "Embedded image"} class="embed-image" />
        {(e.footer?.text || (time && !Number.isNaN(time.getTime()))) && (
          <div class="embed-footer">
            <Img src={e.footer?.icon_url} alt="" class="embed-icon" />
            {e.footer?.text && <span>{String(e.footer.text)}</span>}
            {e.footer?.text && time && <span aria-hidden="true"> • </span>}
            {time && !Number.isNaN(time.getTime()) && <time dateTime={time.toISOString()}>{time.toLocaleString()}</time>}
          </div>
        )}
      </div>
      <Img src={e.thumbnail?.url} alt="Thumbnail" class="embed-thumbnail" />
    </div>
  );
}
