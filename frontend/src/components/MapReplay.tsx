import { useEffect, useId } from "react";
import type { MapDocument } from "../lib/map";

export type MapMoment = MapDocument["moments"][number];

/** How long each moment shows while the replay plays. */
export const REPLAY_STEP_MS = 1500;

/**
 * The map's day slider: the moments the API kept (each dawn, each night), then today's map last.
 * `shown` is the index of the moment shown, or `moments.length` for the map as it stands.
 */
export function MapReplay({
  moments,
  shown,
  onShow,
  playing,
  onPlaying,
}: {
  moments: readonly MapMoment[];
  shown: number;
  onShow: (index: number) => void;
  playing: boolean;
  onPlaying: (playing: boolean) => void;
}) {
  const id = useId();
  const now = moments.length;
  useEffect(() => {
    if (!playing) return;
    if (shown >= now - 1) {
      onPlaying(false);
      return;
    }
    const timer = window.setTimeout(() => onShow(shown + 1), REPLAY_STEP_MS);
    return () => window.clearTimeout(timer);
  }, [playing, shown, now, onShow, onPlaying]);
  if (!moments.length) return null;
  const title = shown < now ? moments[shown]?.title : "Now";
  const play = () => {
    // From the first dawn when at the end, else from where the slider stands.
    if (shown >= now - 1) onShow(0);
    onPlaying(true);
  };
  return (
    <div className="map-replay" role="group" aria-label="Replay the map day by day">
      <button type="button" onClick={playing ? () => onPlaying(false) : play} aria-pressed={playing}>
        {playing ? "Pause" : "Play"}
      </button>
      <label htmlFor={id}>Moment shown</label>
      <input
        id={id}
        type="range"
        min={0}
        max={now}
        step={1}
        value={shown}
        aria-valuetext={title}
        onChange={(event) => {
          onPlaying(false);
          onShow(Number(event.target.value));
        }}
      />
      <output htmlFor={id} aria-live="polite">
        {title}
      </output>
    </div>
  );
}
