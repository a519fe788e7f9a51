import type { AnyIntegration } from "./kit/index.js";
import alertmanager from "./alertmanager/index.js";
import bitbucket2 from "./bitbucket2/index.js";
import circleci from "./circleci/index.js";
import gitea from "./gitea/index.js";
import github, { githubsponsors } from "./github/index.js";
import gitlab from "./gitlab/index.js";
import grafana from "./grafana/index.js";
import helloworld from "./helloworld/index.js";
import jira from "./jira/index.js";
import json from "./json/index.js";
import standardwebhooks from "./standardwebhooks/index.js";
import opsgenie from "./opsgenie/index.js";
import pagerduty from "./pagerduty/index.js";
import sentry from "./sentry/index.js";
import slackIncoming from "./slack_incoming/index.js";
import uptimerobot from "./uptimerobot/index.js";
import bitbucket3 from "./bitbucket3/index.js";
import gogs from "./gogs/index.js";
import bitbucket from "./bitbucket/index.js";
import beanstalk from "./beanstalk/index.js";
import rhodecode from "./rhodecode/index.js";
import reviewboard from "./reviewboard/index.js";
import azuredevops from "./azuredevops/index.js";
import buildbot from "./buildbot/index.js";
import intercom from "./intercom/index.js";
import wekan from "./wekan/index.js";
import newrelic from "./newrelic/index.js";
import ansibletower from "./ansibletower/index.js";
import thinkst from "./thinkst/index.js";
import canarytoken from "./canarytoken/index.js";
import freshstatus from "./freshstatus/index.js";
import freshping from "./freshping/index.js";
import flock from "./flock/index.js";
import errbit from "./errbit/index.js";
import homeassistant from "./homeassistant/index.js";
import crashlytics from "./crashlytics/index.js";
import opensearch from "./opensearch/index.js";
import heroku from "./heroku/index.js";
import dropbox from "./dropbox/index.js";
import appfollow from "./appfollow/index.js";
import gosquared from "./gosquared/index.js";
import updown from "./updown/index.js";
import sonarr from "./sonarr/index.js";
import radarr from "./radarr/index.js";
import lidarr from "./lidarr/index.js";
import rundeck from "./rundeck/index.js";
import splunk from "./splunk/index.js";
import raygun from "./raygun/index.js";
import ifttt from "./ifttt/index.js";
import zapier from "./zapier/index.js";
import librato from "./librato/index.js";
import dialogflow from "./dialogflow/index.js";
import slack from "./slack/index.js";
import travis from "./travis/index.js";
import semaphore from "./semaphore/index.js";
import codeship from "./codeship/index.js";
import gocd from "./gocd/index.js";
import teamcity from "./teamcity/index.js";
import pivotal from "./pivotal/index.js";
import netlify from "./netlify/index.js";
import harbor from "./harbor/index.js";
import sonarqube from "./sonarqube/index.js";
import dbt from "./dbt/index.js";
import airbyte from "./airbyte/index.js";
import stripe from "./stripe/index.js";
import patreon from "./patreon/index.js";
import front from "./front/index.js";
import taiga from "./taiga/index.js";
import clubhouse from "./clubhouse/index.js";
import shortcut from "./shortcut/index.js";
import redmine from "./redmine/index.js";
import notion from "./notion/index.js";
import trello from "./trello/index.js";
import linear from "./linear/index.js";
import freshdesk from "./freshdesk/index.js";
import zendesk from "./zendesk/index.js";
import basecamp from "./basecamp/index.js";
import statuspage from "./statuspage/index.js";
import pingdom from "./pingdom/index.js";
import openproject from "./openproject/index.js";
import groove from "./groove/index.js";
import hellosign from "./hellosign/index.js";
import opencollective from "./opencollective/index.js";
import delighted from "./delighted/index.js";
import greenhouse from "./greenhouse/index.js";
import jotform from "./jotform/index.js";
import wordpress from "./wordpress/index.js";
import transifex from "./transifex/index.js";
import zabbix from "./zabbix/index.js";
import insping from "./insping/index.js";
import papertrail from "./papertrail/index.js";
import template from "./template/index.js";

/**
 * The registry of incoming-webhook integrations: the one shared line a new integration adds.
 * test/integrations/registry.test.ts fails on a folder that is not listed here.
 */
export const integrations: readonly AnyIntegration[] = [
  helloworld,
  github,
  githubsponsors,
  gitea,
  gitlab,
  bitbucket2,
  jira,
  sentry,
  grafana,
  alertmanager,
  pagerduty,
  opsgenie,
  circleci,
  uptimerobot,
  slackIncoming,
  json,
  standardwebhooks,
  bitbucket3,
  gogs,
  bitbucket,
  beanstalk,
  rhodecode,
  reviewboard,
  azuredevops,
  buildbot,
  intercom,
  wekan,
  newrelic,
  ansibletower,
  thinkst,
  canarytoken,
  freshstatus,
  freshping,
  flock,
  errbit,
  homeassistant,
  crashlytics,
  opensearch,
  heroku,
  dropbox,
  appfollow,
  gosquared,
  updown,
  sonarr,
  radarr,
  lidarr,
  rundeck,
  splunk,
  raygun,
  ifttt,
  zapier,
  librato,
  dialogflow,
  slack,
  travis,
  semaphore,
  codeship,
  gocd,
  teamcity,
  pivotal,
  netlify,
  harbor,
  sonarqube,
  dbt,
  airbyte,
  stripe,
  patreon,
  front,
  taiga,
  clubhouse,
  trello,
  linear,
  freshdesk,
  zendesk,
  basecamp,
  statuspage,
  pingdom,
  openproject,
  groove,
  hellosign,
  opencollective,
  delighted,
  greenhouse,
  jotform,
  wordpress,
  transifex,
  zabbix,
  insping,
  papertrail,
  template,
  shortcut,
  redmine,
  notion,
];
