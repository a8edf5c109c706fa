-- Each node's route name (`--route`, NULL without one): the prefix of the
-- ids of the tables it makes, which a proxy sends to it. Of the tables of a
-- dead node, those routed to a live node are left for that node to take over.
ALTER TABLE nodes ADD COLUMN route TEXT;
