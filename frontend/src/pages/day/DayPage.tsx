/** The umpire's day: dawn with its deployments previewed and confirmed, the day's rolls (weather,
 * wind, initiative, turns), segments and their arrival rolls on the worker, reinforcements, and
 * activation points spent by column, each offered as the campaign offers it. Players and observers
 * read the day and its public rolls. */
import { offered } from "../../api/campaign";
import { useOrderOfBattle } from "../../api/lists";
import { QueryView } from "../../components/status";
import { useCampaign } from "../../session";
import { ActivationForm } from "./Activation";
import { DawnForm } from "./Dawn";
import { DayUnderWay } from "./DayUnderWay";
import { Reinforcements } from "./Reinforcements";

export function DayPage() {
  const { campaign, isUmpire } = useCampaign();
  const oob = useOrderOfBattle(campaign.slug);
  const today = campaign.current_day ?? 0;
  return (
    <section>
      <h1>The day</h1>
      {offered(campaign, "start") ? <p>The campaign is being set up: start it on the dashboard.</p> : null}
      {offered(campaign, "dawn") ? (
        <QueryView query={oob} what="the reserves">
          {(data) => <DawnForm campaign={campaign} forces={data.forces} />}
        </QueryView>
      ) : null}
      {today ? <DayUnderWay campaign={campaign} isUmpire={isUmpire} /> : null}
      {offered(campaign, "spend_activation_points") ? (
        <QueryView query={oob} what="the battalions">
          {(data) => <ActivationForm campaign={campaign} forces={data.forces} />}
        </QueryView>
      ) : null}
      {isUmpire ? <Reinforcements campaign={campaign} /> : null}
    </section>
  );
}
