create table if not exists refund_log (id bigint auto_increment primary key, invoice_id varchar(64), amount_cents bigint);
