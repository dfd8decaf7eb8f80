import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { PaperLinks } from "./Papers";

describe("the printable papers", () => {
  it("link each paper the API offers by its title", () => {
    const briefing = "/api/v1/campaigns/malta/days/2/briefing/?side=2";
    const chronicle = "/api/v1/campaigns/malta/chronicle/";
    render(
      <PaperLinks
        papers={[
          { title: "Allied's briefing for day 2 (PDF)", url: briefing },
          { title: "The chronicle so far (PDF)", url: chronicle },
        ]}
      />,
    );

    expect(screen.getByRole("navigation", { name: "Print" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Allied's briefing for day 2 (PDF)" })).toHaveAttribute("href", briefing);
    expect(screen.getByRole("link", { name: "The chronicle so far (PDF)" })).toHaveAttribute("href", chronicle);
  });

  it("show nothing when there is nothing to print", () => {
    render(<PaperLinks papers={[]} />);
    expect(screen.queryByRole("navigation")).not.toBeInTheDocument();
  });
});
