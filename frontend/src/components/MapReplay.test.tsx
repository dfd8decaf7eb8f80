import { act, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MapReplay, REPLAY_STEP_MS, type MapMoment } from "./MapReplay";

const MOMENTS: MapMoment[] = [
  { day: 1, moment: "dawn", moment_label: "At dawn", title: "Day 1, at dawn" },
  { day: 1, moment: "night", moment_label: "After the night", title: "Day 1, after the night" },
  { day: 2, moment: "dawn", moment_label: "At dawn", title: "Day 2, at dawn" },
];

function Harness({ moments = MOMENTS }: { moments?: MapMoment[] }) {
  const [shown, setShown] = useState(moments.length);
  const [playing, setPlaying] = useState(false);
  return <MapReplay moments={moments} shown={shown} onShow={setShown} playing={playing} onPlaying={setPlaying} />;
}

describe("the map's day slider", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("shows today's map last and each kept moment by the API's words", () => {
    render(<Harness />);
    const slider = screen.getByRole("slider", { name: "Moment shown" });
    expect(slider).toHaveAttribute("max", "3");
    expect(screen.getByRole("status")).toHaveTextContent("Now");
    fireEvent.change(slider, { target: { value: "1" } });
    expect(screen.getByRole("status")).toHaveTextContent("Day 1, after the night");
  });

  it("plays from the first dawn to the last moment kept, and pauses", () => {
    vi.useFakeTimers();
    render(<Harness />);
    fireEvent.click(screen.getByRole("button", { name: "Play" }));
    expect(screen.getByRole("status")).toHaveTextContent("Day 1, at dawn");
    act(() => vi.advanceTimersByTime(REPLAY_STEP_MS));
    expect(screen.getByRole("status")).toHaveTextContent("Day 1, after the night");
    fireEvent.click(screen.getByRole("button", { name: "Pause" }));
    act(() => vi.advanceTimersByTime(REPLAY_STEP_MS * 3));
    expect(screen.getByRole("status")).toHaveTextContent("Day 1, after the night");
    fireEvent.click(screen.getByRole("button", { name: "Play" }));
    act(() => vi.advanceTimersByTime(REPLAY_STEP_MS * 3));
    expect(screen.getByRole("status")).toHaveTextContent("Day 2, at dawn");
    expect(screen.getByRole("button", { name: "Play" })).toBeInTheDocument();
  });

  it("is not there before the first dawn", () => {
    const { container } = render(<Harness moments={[]} />);
    expect(container).toBeEmptyDOMElement();
  });
});
